package analyze

import (
	"regexp"
	"slices"
	"strings"
)

// Hand-written corrections applied after the linear classifier, where its
// n-grams cannot see who acts. Each was checked against train.jsonl, where
// the suppressed pattern carries the label in at most 1 of ~25-95 sentences.
var (
	// "You may terminate this agreement at any time": the user, not the
	// provider, ends the contract.
	userTerminatesRe = regexp.MustCompile(`\byou (may|can|are free to|have the right to|are entitled to) (\w+ ){0,2}(terminate|cancel|close|delete|end|stop|discontinue)|\byour right to (terminate|cancel)`)
	providerActsRe   = regexp.MustCompile(`\b(we|us)\b[^.]{0,40}\b(terminat|suspend|disabl|delet|remov|cancel|discontinu)|\breserves? the right\b|\bmay (terminate|suspend|discontinue)`)

	// "X is liable for damages caused by its negligence": an affirmation of
	// liability, not a limitation, when nothing limits or negates it.
	affirmsLiabilityRe = regexp.MustCompile(`\b(is|are|shall be|will be|remains?|be) (\w+ ){0,2}(liable|responsible)\b`)
	// "governed by the laws of your country of residence", "courts of your
	// place of domicile", "arbitration in the county where you live": the
	// consumer's own forum or law is not an unfair clause (none of the 16
	// such train sentences carries law, jurisdiction or arbitration).
	userForumRe = regexp.MustCompile(`where you (live|reside)|your (country|state|place|county) of (residence|domicile)|(country|state|province) (where|in which) you (live|reside)|laws of your (state|country)|courts? (of|in) your\b`)

	limitsLiabilityRe = regexp.MustCompile(`\b(not|no|never|exclude\w*|limit\w*|cap|maximum|disclaim\w*|only|nothing|waive\w*|release|hold|indemnif\w*|neither|nor|sole|solely|own risk|without)\b|n't`)
)

const (
	idxLiability   = 0
	idxTermination = 1
	idxLaw         = 5
	idxJurisdict   = 6
	idxArbitration = 7
)

// applyRules lowers the margins the corrections veto below the threshold.
func (c *classifier) applyRules(sentence string, ms *[nLabels]float32) {
	var on [nLabels]bool
	for j := range on {
		on[j] = ms[j] >= c.m.Thr[j]
	}
	v := ruleVetoes(sentence, on)
	for j := range v {
		if v[j] {
			ms[j] = c.m.Thr[j] - 0.01
		}
	}
}

// ruleVetoes returns which of the categories on (predicted by the model)
// the corrections remove.
func ruleVetoes(sentence string, on [nLabels]bool) [nLabels]bool {
	var v [nLabels]bool
	forum := on[idxLaw] || on[idxJurisdict] || on[idxArbitration]
	if !on[idxTermination] && !on[idxLiability] && !forum {
		return v
	}
	low := strings.ToLower(sentence)
	if on[idxTermination] && userTerminatesRe.MatchString(low) && !providerActsRe.MatchString(low) {
		v[idxTermination] = true
	}
	if forum && userForumRe.MatchString(low) {
		v[idxLaw], v[idxJurisdict], v[idxArbitration] = on[idxLaw], on[idxJurisdict], on[idxArbitration]
	}
	if on[idxLiability] && affirmsLiabilityRe.MatchString(low) && !limitsLiabilityRe.MatchString(low) {
		v[idxLiability] = true
	}
	return v
}

// withRules removes the labels the corrections veto from a prediction.
func withRules(sentence string, labels []string) []string {
	if noRules || len(labels) == 0 {
		return labels
	}
	var on [nLabels]bool
	for j, l := range ClauseLabels {
		on[j] = slices.Contains(labels, l)
	}
	v := ruleVetoes(sentence, on)
	var out []string
	for j, l := range ClauseLabels {
		if on[j] && !v[j] {
			out = append(out, l)
		}
	}
	return out
}

// noRules disables the corrections (for measuring them).
var noRules = false
