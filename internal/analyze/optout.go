package analyze

import (
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// A ToS;DR case can also be found by a hand-written rule, where its quotes
// are too few to learn it from: "This service does not force users into
// binding arbitration" has 7 (minCaseQuotes is 10), and only one of them
// (xfinity's) quotes an opt-out; the others are forum clauses, headings or
// the arbitration clause itself. Yet an opt-out is what tells a fair
// arbitration clause from a forced one, and it is worded in a few stock
// ways ("you may opt out of this agreement to arbitrate", "you can decline
// this agreement to arbitrate", "if you do not wish to be bound by this
// arbitration, email ..."). The rule sits beside the model in the detector,
// so its case flows through Cases, Basis, merge and findings as a learned
// one does, and neither the model file nor training changes.
type ruleCase struct {
	info model.CaseInfo
	// needs are token prefixes one of which every matching sentence has,
	// so most sentences are passed over without building their words.
	needs []string
	// match reports the practice in a sentence's words (words(toks)).
	match func(words string) bool
	conf  float64
	// only: the learned case of the same title stands only where the rule
	// matches too ("You retain all moral rights" shares the waiver's words
	// but not its practice, and the waiver is the sentence to quote).
	only bool
	// exclusive: where it matches, the rule's case is the category's only
	// case in the sentence, other rules' included.
	exclusive bool
	// group: of the rules of one group the first that matches stands.
	group string
	// kw: when set, the rule is tried only on words containing one of
	// these (a cheap test before the patterns)
	kw []string
	// keepOthers: the learned cases of the rule's category stay beside
	// it (a tracking sentence states its pixels and its targeted ads).
	keepOthers bool
}

// ruleCases are the cases found by rules.
var ruleCases = append(weightyRules[:len(weightyRules):len(weightyRules)], ruleCase{
	info:      model.CaseInfo{Title: "This service does not force users into binding arbitration", Rating: SeverityGood, Category: "arbitration"},
	needs:     []string{"arbitra"},
	exclusive: true,
	match:     arbitrationOptOut,
	// Its precision: the 23 CLAUDETTE sentences (train, validation, newer)
	// it matches are all in opt-out passages (17 grant the opt-out or say
	// how to use it, 5 say what follows from it, 1 recalls an earlier
	// version's); of the 77 in the corpus's terms (30 services), 70 are
	// about the user's opt-out, 6 about a way out of a mass arbitration
	// after a failed mediation or a court's ruling (Spotify, Bumble,
	// Windstream; one the company's own) and 1 is negated further back
	// than the rule looks.
	conf: 0.9,
})

var (
	// "you may opt out of", "you can decline", "you have 30 days to opt
	// out", "to opt out, you must notify us": the user, or the procedure,
	// opting out. Decline and reject need "you": "the AAA may decline to
	// administer the arbitration" is no opt-out.
	optOutRe = mustPattern(`\b(?:you(?: [^ ]+){0,4}? (opt out|opt-out|optout|decline|reject)|to (opt out|opt-out|optout))\b`)
	// "if you do not wish to be bound by this arbitration agreement,
	// email us" (what follows must say how: optOutActRe, not leaveRe).
	notWishRe   = mustPattern(`\bif you (?:do not|do n't|dont) (?:wish|want) to (?:[^ ]+ ){0,6}?arbitra[^ ]*`)
	optOutActRe = mustPattern(`\b(?:opt out|opt-out|decline|reject|notify|notifying|notice|e-mail|email|write|writing|send|sending|mail|contact|visit|call)\b`)
	// "... you must not use the service", "... close your account": leaving
	// the service is no opt-out.
	leaveRe = mustPattern(`\b(?:not|stop|cease|discontinue)(?: [^ ]+)? (?:use|using|access|accessing)\b|\b(?:close|terminate|cancel|delete) your\b`)
)

// optOutWindow is how many words after the verb may separate it from the
// arbitration it opts out of ("to opt out, you must notify Rovio in writing
// within 30 days of the date that you first became subject to this
// arbitration provision").
const optOutWindow = 20

var (
	// negations, among the six words before the verb, make it no opt-out:
	// "you may not opt out", "you cannot reject", "if you fail to opt out".
	negations = []string{"not", "no", "never", "cannot", "n't", "neither", "nor", "without", "fail", "fails", "failure"}
	// exceptions, anywhere before the verb, make the sentence the binding
	// arbitration that the opt-out is the exception to: "unless you opt
	// out, disputes will be resolved by binding arbitration" (ToS;DR's
	// curators rate such quotes as the bad case).
	exceptions = []string{"unless", "except"}
	// otherObjects, between the verb and the arbitration (or just after
	// it), make the object something else: "reject any such change to this
	// arbitration provision" (the old provision still binds), "reject our
	// settlement offer before the arbitrator", "opt out of marketing
	// emails; disputes go to arbitration".
	otherObjects = []string{"change", "changes", "amendment", "amendments", "modification", "modifications", "revision", "revisions", "update", "updates", "offer", "settlement",
		"marketing", "promotional", "newsletter", "newsletters", "advertising", "ads", "cookies", "tracking", "sale", "sharing", "messages", "sms"}
)

// arbitrationOptOut reports whether a sentence gives the user a way out of
// arbitration.
func arbitrationOptOut(w string) bool {
	for _, loc := range optOutRe.FindAllStringSubmatchIndex(w, -1) {
		before := strings.Fields(w[:max(loc[2], loc[4])])
		if anyOf(before[max(0, len(before)-6):], negations) || anyOf(before, exceptions) {
			continue
		}
		after := strings.Fields(w[loc[1]:])
		after = after[:min(len(after), optOutWindow)]
		k := slices.IndexFunc(after, func(s string) bool { return strings.HasPrefix(s, "arbitra") })
		if k >= 0 && !anyOf(after[:min(len(after), k+2)], otherObjects) {
			return true
		}
	}
	if loc := notWishRe.FindStringIndex(w); loc != nil {
		rest := w[loc[1]:]
		return optOutActRe.MatchString(rest) && !leaveRe.MatchString(rest)
	}
	return false
}

// anyOf reports whether one of words is one of set.
func anyOf(words, set []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(set, w) })
}

// withRuleCases returns a copy of m whose Cases list the rule cases after
// the learned ones, so that a hit's index names its case however it was
// found (only the learned cases have margins and thresholds), and the rule
// cases' indices. A rule case the model learned too (the weighty ones) is
// not listed twice: the rule finds the learned case. m itself is not
// changed.
func withRuleCases(m *model.CaseModel) (*model.CaseModel, []int) {
	c := *m
	c.Cases = slices.Clip(m.Cases)
	idx := make([]int, len(ruleCases))
	for k, r := range ruleCases {
		if j := slices.IndexFunc(c.Cases, func(ci model.CaseInfo) bool { return ci.Title == r.info.Title }); j >= 0 {
			idx[k] = j
			continue
		}
		idx[k] = len(c.Cases)
		c.Cases = append(c.Cases, r.info)
	}
	return &c, idx
}

// ruleHits appends the rule cases a sentence matches to its hits, dst[from:].
// A rule's case is the sentence's practice of its category: the learned
// cases of that category found on it read the words it shares with the
// practice it qualifies ("you may opt out of this agreement to arbitrate"
// names the arbitration it lets you out of), so they go, as does a learned
// hit of the rule's own title (the rule's stands for it). A learned hit of
// an only rule's title goes where that rule does not match.
func (d *caseDetector) ruleHits(toks []string, dst []caseHit, from int) []caseHit {
	var w string
	var groups []string
	var matched []bool
	present := ruleNeeds(toks)
	for k, r := range ruleCases {
		if r.group != "" && slices.Contains(groups, r.group) {
			continue
		}
		if !present[k] {
			continue
		}
		if w == "" {
			w = words(toks)
		}
		if r.kw != nil && !containsAny(w, r.kw) || !r.match(w) {
			continue
		}
		if matched == nil {
			matched = make([]bool, len(ruleCases))
		}
		matched[k] = true
		if r.group != "" {
			groups = append(groups, r.group)
		}
		keep := dst[:from]
		conf := r.conf
		for _, h := range dst[from:] {
			c := d.m.Cases[h.idx]
			if c.Title == r.info.Title {
				conf = max(conf, h.conf) // the model was surer
			}
			same := c.Title == r.info.Title || r.info.Category != "" && c.Category == r.info.Category && (!h.rule && !r.keepOthers || r.exclusive)
			if !same {
				keep = append(keep, h)
			}
		}
		dst = append(keep, caseHit{d.rule[k], conf, 0, true})
	}
	keep := dst[:from]
	for _, h := range dst[from:] {
		if !h.rule && d.onlyByRule(h.idx, matched) {
			continue
		}
		keep = append(keep, h)
	}
	return keep
}

// onlyByRule: the learned case idx has an only rule, which did not match.
func (d *caseDetector) onlyByRule(idx int, matched []bool) bool {
	t := d.m.Cases[idx].Title
	for k, r := range ruleCases {
		if r.only && r.info.Title == t && (matched == nil || !matched[k]) {
			return true
		}
	}
	return false
}

// needIndex lists, by first byte, the token prefixes the rule cases need
// and the rules needing each, so a sentence's tokens are matched against
// the few prefixes that can fit.
var needIndex = func() (ix [256][]needRef) {
	for k, r := range ruleCases {
		for _, n := range r.needs {
			ix[n[0]] = append(ix[n[0]], needRef{n, k})
		}
	}
	return ix
}()

type needRef struct {
	prefix string
	rule   int
}

// maxRuleCases bounds ruleCases (ruleNeeds' array).
const maxRuleCases = 32

// ruleNeeds reports, per rule case, whether one of the tokens starts with
// one of its needs.
func ruleNeeds(toks []string) (present [maxRuleCases]bool) {
	for _, t := range toks {
		if t == "" {
			continue
		}
		for _, n := range needIndex[t[0]] {
			if !present[n.rule] && strings.HasPrefix(t, n.prefix) {
				present[n.rule] = true
			}
		}
	}
	return present
}
