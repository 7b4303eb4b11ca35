package analyze

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// Hand-written corrections applied after the linear classifier. The vetoes
// cover what its n-grams cannot see (who acts); each was checked against
// train.jsonl, where the suppressed pattern carries the label in at most 1 of
// ~25-95 sentences. The two additions name a choice of law or a mandatory
// arbitration in words that leave no doubt, where the model's margin still
// falls short on a short or unusually worded sentence.
var (
	// "These Terms are governed by (and construed in accordance with) the
	// laws of X", "the laws of the State of X govern". The agreement must be
	// what is governed: "processing is governed by the laws of the EU" in a
	// privacy policy is not a choice of law. 20 of 20 matching train
	// sentences carry the label.
	lawChosenRe = mustPattern(`\b(terms|agreement|eula|conditions|contract|policy|these|this|disputes?|claims?|relationship)\b( \w+){0,8}? (is |are |shall be |will be |be )?(exclusively |solely )?(governed by|construed (in accordance with|under))( and (construed|interpreted|enforced) (in accordance with|under))? (the )?(substantive |internal )?laws? of \w+|\blaws? of (the )?(state of )?\w+( \w+)? (shall |will )?governs?\b`)
	// "disputes shall be resolved by final and binding arbitration", "you
	// agree to arbitrate", unless negated just before ("will not be", "do
	// not agree"). 8 of 10 matching train sentences carry the label (the
	// other 2 are Zynga summaries of its arbitration clause, labelled fair).
	arbitrationRe = mustPattern(`\b(shall|will|must) be (resolved|settled|decided|determined|submitted) (exclusively |solely |only )?(by|through|to) (final (and )?|binding |final and binding |individual )*arbitration|\bagree to (binding |individual )?arbitrat`)
	negatorRe     = mustPattern(`\b(not|no|neither|never|nor|without|t)\b`)

	// "You may terminate this agreement at any time": the user, not the
	// provider, ends the contract.
	userTerminatesRe = mustPattern(`\byou (may|can|are free to|have the right to|are entitled to) (\w+ ){0,2}(terminate|cancel|close|delete|end|stop|discontinue)|\byour right to (terminate|cancel)`)
	providerActsRe   = mustPattern(`\b(we|us)\b[^.]{0,40}\b(terminat|suspend|disabl|delet|remov|cancel|discontinu)|\breserves? the right\b|\bmay (terminate|suspend|discontinue)`)

	// "X is liable for damages caused by its negligence": an affirmation of
	// liability, not a limitation, when nothing limits or negates it.
	affirmsLiabilityRe = mustPattern(`\b(is|are|shall be|will be|remains?|be) (\w+ ){0,2}(liable|responsible)\b`)
	// "governed by the laws of your country of residence", "courts of your
	// place of domicile", "arbitration in the county where you live": the
	// consumer's own forum or law is not an unfair clause (none of the 16
	// such train sentences carries law, jurisdiction or arbitration).
	userForumRe = mustPattern(`where you (live|reside)|your (country|state|place|county) of (residence|domicile)|(country|state|province) (where|in which) you (live|reside)|laws of your( \w+)? (state|country|jurisdiction|province)|courts? (of|in) your\b`)

	limitsLiabilityRe = mustPattern(`\b(not|no|never|exclude\w*|limit\w*|cap|maximum|disclaim\w*|only|nothing|waive\w*|release|hold|indemnif\w*|neither|nor|sole|solely|own risk|without)\b|n't`)
)

const (
	idxLiability   = 0
	idxTermination = 1
	idxChange      = 2
	idxLaw         = 5
	idxJurisdict   = 6
	idxArbitration = 7
)

// addedPrecision is how often a label added by a pattern is right on
// train.jsonl (Laplace-smoothed: (20+1)/(20+2) and (8+1)/(10+2)).
var addedPrecision = [nLabels]float64{idxLaw: 0.95, idxArbitration: 0.75}

// applyRules moves the margins the corrections change across the threshold:
// a veto just below it, an added label to where its confidence is the
// pattern's precision on train. toks are the sentence's normalised tokens,
// as the model read them.
func (c *classifier) applyRules(sentence string, toks []string, ms *[nLabels]float32) {
	var on [nLabels]bool
	for j := range on {
		on[j] = ms[j] >= c.m.Thr[j]
	}
	after := correct(sentence, toks, on)
	for j := range after {
		switch {
		case on[j] && !after[j]:
			ms[j] = c.m.Thr[j] - 0.01
		case !on[j] && after[j]:
			p := addedPrecision[j]
			ms[j] = c.m.Thr[j] + float32(math.Log(p/(1-p)))/c.scale(j)
		}
	}
}

// correct returns the categories of a sentence after the corrections, given
// those the model predicted (on) and the sentence's normalised tokens.
func correct(sentence string, toks []string, on [nLabels]bool) [nLabels]bool {
	law := !on[idxLaw] && lawOf(toks)
	arb := !on[idxArbitration] && slices.ContainsFunc(toks, func(t string) bool { return strings.HasPrefix(t, "arbitra") })
	if law || arb {
		// The words alone, so raw and tokenised text read alike
		// ("governed by, and construed" / "governed by , and construed").
		w := words(toks)
		if law {
			m := lawChosenRe.FindString(w)
			on[idxLaw] = m != "" && !strings.Contains(m, "of your")
		}
		if arb {
			loc := arbitrationRe.FindStringIndex(w)
			on[idxArbitration] = loc != nil && !negatorRe.MatchString(lastWords(w[:loc[0]], 5))
		}
	}
	v := vetoes(sentence, on)
	for j := range on {
		on[j] = on[j] && !v[j]
	}
	return on
}

// lawOf reports "law of" or "laws of" among the tokens.
func lawOf(toks []string) bool {
	for i := 0; i+1 < len(toks); i++ {
		if (toks[i] == "law" || toks[i] == "laws") && toks[i+1] == "of" {
			return true
		}
	}
	return false
}

// words joins the tokens that hold a letter or digit with single spaces.
func words(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		if strings.IndexFunc(t, isWordRune) < 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

// lastWords returns the last n words of space-separated s.
func lastWords(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(strings.TrimRight(s[:i], " "), ' ') + 1
	}
	return s[i:]
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// vetoes returns which of the categories on the corrections remove.
func vetoes(sentence string, on [nLabels]bool) [nLabels]bool {
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

// WithRules applies the corrections to a prediction (training scores its
// cross-validated predictions with them, as the classifier applies them).
func WithRules(sentence string, labels []string) []string {
	var on [nLabels]bool
	for j, l := range ClauseLabels {
		on[j] = slices.Contains(labels, l)
	}
	after := correct(sentence, Normalize(sentence), on)
	var out []string
	for j, l := range ClauseLabels {
		if after[j] {
			out = append(out, l)
		}
	}
	return out
}
