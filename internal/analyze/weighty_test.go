package analyze

import (
	"slices"
	"testing"
)

// The weighty practices' tests are beside their files (content_test.go,
// disputes_test.go, ...): each practice is found in several wordings, the
// service under any name, active or passive, shouted or in a list of
// reasons (findsEach), and not in the sentences that share its words but
// state another case or none: the user sharing, the law's exceptions, the
// procedure around an arbitration, a liability excluded only for others'
// conduct, the date of the terms rather than their change (findsNone).

// caseText is a sentence and the case it states or does not.
type caseText struct{ title, text string }

// findsEach: every text has a finding of its title.
func findsEach(t *testing.T, cases []caseText) {
	t.Helper()
	e := engine(t)
	for _, c := range cases {
		res := e.Analyze(c.text, Options{DocumentType: "terms"})
		if !slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Case == c.title }) {
			t.Errorf("%q: no finding of %q (findings %v)", c.text, c.title, res.Findings)
		}
	}
}

// findsNone: no text has a finding of its title.
func findsNone(t *testing.T, cases []caseText) {
	t.Helper()
	e := engine(t)
	for _, c := range cases {
		res := e.Analyze(c.text, Options{DocumentType: "terms"})
		if slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Case == c.title }) {
			t.Errorf("%q: finding of %q, want none (findings %v)", c.text, c.title, res.Findings)
		}
	}
}

// A rule's case is listed once among the detector's cases, whether the
// model learns it too (the weighty cases) or not (the opt-out).
func TestRuleCasesAreNotLearned(t *testing.T) {
	d := engine(t).cd
	for _, r := range ruleCases {
		n := 0
		for _, c := range d.m.Cases {
			if c.Title == r.info.Title {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q is listed %d times among the detector's cases", r.info.Title, n)
		}
	}
}

// ruleNeeds' array holds every rule case.
func TestRuleCasesFitNeeds(t *testing.T) {
	if len(ruleCases) > maxRuleCases {
		t.Fatalf("%d rule cases, maxRuleCases is %d", len(ruleCases), maxRuleCases)
	}
}
