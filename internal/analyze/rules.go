package analyze

import (
	"regexp"
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
	limitsLiabilityRe  = regexp.MustCompile(`\b(not|no|never|exclude\w*|limit\w*|cap|maximum|disclaim\w*|only|nothing|waive\w*|release|hold|indemnif\w*|neither|nor|sole|solely|own risk|without)\b|n't`)
)

const (
	idxLiability   = 0
	idxTermination = 1
)

// applyRules lowers the margins the corrections veto below the threshold.
func (c *classifier) applyRules(sentence string, ms *[nLabels]float32) {
	if ms[idxTermination] < c.m.Thr[idxTermination] && ms[idxLiability] < c.m.Thr[idxLiability] {
		return
	}
	low := strings.ToLower(sentence)
	veto := func(j int) {
		if ms[j] >= c.m.Thr[j] {
			ms[j] = c.m.Thr[j] - 0.01
		}
	}
	if ms[idxTermination] >= c.m.Thr[idxTermination] && userTerminatesRe.MatchString(low) && !providerActsRe.MatchString(low) {
		veto(idxTermination)
	}
	if ms[idxLiability] >= c.m.Thr[idxLiability] && affirmsLiabilityRe.MatchString(low) && !limitsLiabilityRe.MatchString(low) {
		veto(idxLiability)
	}
}

// noRules disables the corrections (for measuring them).
var noRules = false
