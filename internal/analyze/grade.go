package analyze

import "slices"

// Case is a ToS;DR case found in a document: what a finding's Case names,
// with the case's rating (the finding's severity) and our category.
type Case struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"` // blocker | bad | neutral | good
	Category string `json:"category"`
}

// Basis is what a grade is computed from: the distinct cases of the
// findings (GradeCases), counted by rating, and the balance
// good - bad - 3 x blocker.
type Basis struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

// Thresholds are the two balances of ToS;DR's rule: E below EBelow, C below
// CBelow (when no blocker). ToS;DR's balances are for a service reviewed in
// full; with Ref set, a basis of fewer than Ref rated cases (good, bad or
// blocker; a short document) is held to thresholds shrunk in proportion to
// its rated cases, counting at least Floor, so five bad cases out of five
// weigh more than five out of twenty.
type Thresholds struct{ EBelow, CBelow, Ref, Floor int }

// shrink is the factor the thresholds are multiplied by for b.
func (t Thresholds) shrink(b Basis) float64 {
	if t.Ref == 0 {
		return 1
	}
	n := max(b.Good+b.Bad+b.Blocker, t.Floor)
	return min(1, float64(n)/float64(t.Ref))
}

// ToSDRThresholds are ToS;DR's own, for a service's approved points.
var ToSDRThresholds = Thresholds{EBelow: -10, CBelow: -4}

// GradeThresholds are the ones the engine grades with: ToS;DR's times 1.2,
// shrunk for a document with fewer than 15 rated cases (the median the
// detector finds in a dev service's terms and privacy policy together),
// counting at least 4. The scale and the shrinking were chosen on the dev
// services by cmd/eval-grades, leaving one service out. See README-grade.md.
var GradeThresholds = Thresholds{EBelow: -12, CBelow: -5, Ref: 15, Floor: 4}

// BasisOf counts distinct cases by rating.
func BasisOf(cases []Case) Basis {
	var b Basis
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Title] {
			continue
		}
		seen[c.Title] = true
		switch c.Rating {
		case SeverityGood:
			b.Good++
		case SeverityNeutral:
			b.Neutral++
		case SeverityBad:
			b.Bad++
		case SeverityBlocker:
			b.Blocker++
		}
	}
	b.Balance = b.Good - b.Bad - 3*b.Blocker
	return b
}

// Letter is ToS;DR's 2018 rule (edit.tosdr.org, app/models/service.rb),
// with the given thresholds (shrunk as Thresholds says): E if the balance is
// below t.EBelow; else D if there is a blocker; else C if the balance is
// below t.CBelow; else B if
// there is a bad case; else A. ToS;DR gives no grade without a good, bad or
// blocker point; a document where none is found grades A, as the rule's
// last branch, and its basis says that nothing was found.
func (b Basis) Letter(t Thresholds) string {
	f, bal := t.shrink(b), float64(b.Balance)
	switch {
	case bal < f*float64(t.EBelow):
		return "E"
	case b.Blocker > 0:
		return "D"
	case bal < f*float64(t.CBelow):
		return "C"
	case b.Bad > 0:
		return "B"
	}
	return "A"
}

// Score maps a letter and a balance to 0..100: each letter owns a band of
// twenty points (A 80-100, B 60-79, C 40-59, D 20-39, E 0-19), so a higher
// score never has a worse letter, and within its band the score rises with
// the balance one point per unit (from balance -10 at the band's bottom;
// for E, from 19 balance units below t.EBelow).
func (b Basis) Score(letter string, t Thresholds) int {
	lo := 80 - 20*int(letter[0]-'A')
	off := 10 + b.Balance
	if letter == "E" {
		off = 20 + b.Balance - t.EBelow
	}
	top := 19
	if letter == "A" {
		top = 20
	}
	return lo + max(0, min(top, off))
}

// Grade grades a set of cases (those of one document, or the union of a
// batch's documents) with the engine's thresholds.
func Grade(cases []Case) (grade string, score int, basis Basis) {
	basis = BasisOf(cases)
	grade = basis.Letter(GradeThresholds)
	return grade, basis.Score(grade, GradeThresholds), basis
}

// GradeCases lists the cases a document's findings grade it with, distinct
// and in document order, so the grade is computed from the findings the
// reader sees:
//   - a finding that is an instance of a ToS;DR case counts as its case;
//   - a bad or blocker finding of a category alone counts as its category's
//     default case, titled as the finding and rated as its severity, so no
//     bad clause is left out of the grade because no ToS;DR case fired;
//   - a good finding that overlaps a bad or blocker finding does not count:
//     one sentence is never both a bad and a good case ("we may terminate
//     your account at any time" is not also "you can leave at any time").
//
// Neutral and good findings of a category alone carry no case; neutral cases
// are listed but do not move the grade.
func GradeCases(findings []Finding) []Case {
	var bad []Finding
	for _, f := range findings {
		if f.Severity == SeverityBad || f.Severity == SeverityBlocker {
			bad = append(bad, f)
		}
	}
	out := []Case{}
	seen := map[string]bool{}
	for _, f := range findings {
		title := f.Case
		if title == "" && (f.Severity == SeverityBad || f.Severity == SeverityBlocker) {
			title = f.Title
		}
		if title == "" || seen[title] {
			continue
		}
		if f.Severity == SeverityGood && slices.ContainsFunc(bad, func(b Finding) bool { return b.Start < f.End && f.Start < b.End }) {
			continue
		}
		seen[title] = true
		out = append(out, Case{Title: title, Rating: f.Severity, Category: f.Category})
	}
	return out
}

// UnionCases returns the distinct cases of several documents' cases, in
// order of first appearance, as ToS;DR grades a service from all its
// documents.
func UnionCases(lists ...[]Case) []Case {
	out := []Case{}
	for _, l := range lists {
		for _, c := range l {
			if !slices.ContainsFunc(out, func(o Case) bool { return o.Title == c.Title }) {
				out = append(out, c)
			}
		}
	}
	return out
}
