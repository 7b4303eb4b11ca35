package analyze

import (
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// The weighty practices (issue 21 item 5) are found by rules as well as by
// the learned case model: the model learns each from a few dozen ToS;DR
// quotes and misses wordings they lack, while these practices are stated
// in a small legal vocabulary that a pattern covers across wordings
// ("waive ... moral rights", "in no event ... liable", "class or
// representative action"). The patterns were written from ToS;DR's quotes
// of each case (shared/data/tosdr/points.jsonl, the model's training data)
// and the case labels' guidelines, then narrowed on the false alarms of
// the labelled services of folds 0-2 (cmd/eval-cases -dump; folds 3-4
// kept unread to check them), each narrowing a reading of who acts or
// what for rather than a sentence; who is bound is decided afterwards
// (gate), as for every finding. Each rule's case carries cases.tsv's title,
// rating and category, so its findings are the learned case's.

// Each family of weighty practices has its file, with its titles, its rule
// cases (needs, keywords, confidence) and their patterns: content.go
// (moral rights, licences), disputes.go (arbitration, class actions, the
// arbitration opt-out), liability.go, termination.go, changes.go,
// sharing.go (sale, third parties), tracking.go (advertising, other
// sites), retention.go (copies kept after deletion) and biometrics.go.
// This file holds what they share: the rule case, the order rules are
// tried in and how their hits join the learned cases'.

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

func weightyCase(title, rating, category string) model.CaseInfo {
	return model.CaseInfo{Title: title, Rating: rating, Category: category}
}

// weightyRules are the rule cases of the weighty practices, tried in this
// order; the arbitration opt-out (disputes.go) comes after them and, where it
// matches, stands for the arbitration category alone.
// Termination, changes, advertising and sale or sharing are only: on the
// labelled sentences the learned cases of those titles added one sentence
// the rules missed (now found by a rule) and a dozen false alarms the
// rules' readings of actor and purpose avoid.
var weightyRules = []ruleCase{
	ruleMoralRights,
	ruleLicenceAfter,
	ruleLicenceThird,
	ruleBroadLicence,
	ruleClassAction,
	ruleArbitration,
	ruleLiabilityFees,
	ruleNoLiability,
	ruleTermination,
	ruleChangeNoNotice,
	ruleSellUnlessOpt,
	ruleTargetedAds,
	ruleAds,
	ruleKeepsDeleted,
	ruleBiometric,
	ruleOtherSites,
	ruleGivenThird,
}

// negatedBefore: a negation among the n words before position i of w.
func negatedBefore(w string, i, n int) bool {
	return negatorRe.MatchString(lastWords(w[:i], n))
}

// ruleCases are the cases found by rules.
var ruleCases = append(weightyRules[:len(weightyRules):len(weightyRules)], ruleArbitrationOptOut)

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
