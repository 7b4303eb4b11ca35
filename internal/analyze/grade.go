package analyze

import (
	"fmt"
	"slices"
)

// Case is a ToS;DR case found in a document: what a finding's Case names,
// with the case's rating (the finding's severity) and our category.
type Case struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"` // blocker | bad | neutral | good
	Category string `json:"category"`
}

// Basis is what a grade is computed from: the distinct cases of the
// findings (GradeCases), counted by rating, and the balance: + 1 per good
// case, - 1 per bad case, - 3 per blocker case of ToS;DR's, - 1 per blocker
// finding of a category alone (a default case, see GradeCases).
type Basis struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

// Thresholds are the balances of the letter rule: E below EBelow, D below
// DBelow, C below CBelow (EBelow <= DBelow <= CBelow <= 0). ToS;DR's
// balances are for a service reviewed in full; with Ref set, a basis whose
// cases weigh less than Ref in all (good and bad weights added up; a short
// document) is held to thresholds shrunk in proportion, counting at least
// Floor. Adding a case of weight w moves a shrunk threshold by at most
// w x EBelow/Ref, so with -EBelow <= Ref the balance (which moves by w)
// always moves at least as far: a bad case never lifts a grade. Below Ref
// the rule compares the balance per unit of weight: a document of bad cases
// alone has a balance of -1 per unit, so it grades D as soon as DBelow/Ref
// is above -1, however short it is.
type Thresholds struct{ EBelow, DBelow, CBelow, Ref, Floor int }

// shrink is the factor the thresholds are multiplied by for a basis of the
// given weight.
func (t Thresholds) shrink(mass int) float64 {
	if t.Ref == 0 {
		return 1
	}
	return min(1, float64(max(mass, t.Floor))/float64(t.Ref))
}

// ToSDRThresholds are ToS;DR's own (2018-2023), for a service's approved
// points. Their rule has no balance for D (only a blocker makes D): at E's
// balance it never decides.
var ToSDRThresholds = Thresholds{EBelow: -10, DBelow: -10, CBelow: -4}

// GradeThresholds are the ones the engine grades with: ToS;DR's E and C
// times 3.5 (the detector finds two to three times as many rated cases in a
// service's terms and privacy policy as ToS;DR's reviewers approve, and few
// good cases are sure enough to count), D a quarter of the way from C to E,
// shrunk for a document whose cases weigh less than 35, counting at least
// 3. Ref = -EBelow: a larger Ref grades every document with few good cases
// E. The scale was chosen on the dev services by cmd/eval-grades, leaving
// one service out; they cannot tell D's place apart (their bases are almost
// all bad), so it is the one that grades two bad cases alone D, while the
// floor keeps one bad case alone a B. See README-grade.md.
var GradeThresholds = Thresholds{EBelow: -35, DBelow: -19, CBelow: -14, Ref: 35, Floor: 3}

// weight is what a case moves the balance by (its sign aside), and whether
// it is a default case (a finding of a category alone).
func weight(c Case) int {
	switch c.Rating {
	case SeverityGood, SeverityBad:
		return 1
	case SeverityBlocker:
		if IsDefaultCase(c.Title) {
			return 1
		}
		return 3
	}
	return 0
}

// IsDefaultCase reports whether a case title is a category's default case
// (the title of a finding of a category alone), not one of ToS;DR's.
func IsDefaultCase(title string) bool { return defaultTitles[title] }

var defaultTitles = func() map[string]bool {
	out := map[string]bool{}
	for _, bySev := range catalog {
		for _, t := range bySev {
			out[t.title] = true
		}
	}
	return out
}()

// tally is a basis with what the letter needs beyond it: the weight of its
// rated cases, and whether a blocker is one of ToS;DR's cases (D at least)
// or only a finding of a category alone (C at least).
type tally struct {
	Basis
	mass                        int
	caseBlocker, defaultBlocker bool
}

func tallyOf(cases []Case) tally {
	var t tally
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Title] {
			continue
		}
		seen[c.Title] = true
		w := weight(c)
		switch c.Rating {
		case SeverityGood:
			t.Good++
			t.Balance += w
		case SeverityNeutral:
			t.Neutral++
		case SeverityBad:
			t.Bad++
			t.Balance -= w
		case SeverityBlocker:
			t.Blocker++
			t.Balance -= w
			if IsDefaultCase(c.Title) {
				t.defaultBlocker = true
			} else {
				t.caseBlocker = true
			}
		}
		t.mass += w
	}
	return t
}

// BasisOf counts distinct cases by rating, with their balance.
func BasisOf(cases []Case) Basis { return tallyOf(cases).Basis }

// Letter grades a set of cases by ToS;DR's 2018 rule (edit.tosdr.org,
// app/models/service.rb) with a balance for D added, and the given
// thresholds (shrunk as Thresholds says): E if the balance is below
// t.EBelow; else D if it is below t.DBelow or a blocker case of ToS;DR's is
// found; else C if the balance is below t.CBelow or a blocker finding of a
// category alone is found (a blocker never sits under an A or a B); else B
// if there is a bad case; else A. ToS;DR's 2018 rule makes D only of a
// blocker, so a short document of bad cases alone, whose balance can never
// pass the shrunk E threshold, stayed C; the D balance is in the spirit of
// ToS;DR's 2023 rule ("D if bads > goods"). ToS;DR gives no grade without a
// good, bad or blocker point; a document where none is found grades A, as
// the rule's last branch, and its basis says that nothing was found.
func Letter(cases []Case, t Thresholds) string { return tallyOf(cases).letter(t) }

func (b tally) letter(t Thresholds) string {
	f, bal := t.shrink(b.mass), float64(b.Balance)
	switch {
	case bal < f*float64(t.EBelow):
		return "E"
	case bal < f*float64(t.DBelow) || b.caseBlocker:
		return "D"
	case bal < f*float64(t.CBelow) || b.defaultBlocker:
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
	t := tallyOf(cases)
	grade = t.letter(GradeThresholds)
	return grade, t.Score(grade, GradeThresholds), t.Basis
}

// GradeCases lists the cases a document's findings grade it with, distinct
// and in document order, so the grade is computed from the findings the
// reader sees:
//   - a bad or blocker finding that is an instance of a ToS;DR case counts
//     as its case;
//   - a bad or blocker finding of a category alone counts as its category's
//     default case, titled as the finding and rated as its severity, so no
//     bad clause is left out of the grade because no ToS;DR case fired;
//   - a good finding counts as its case only when the case is admitted
//     (AdmittedGood: right at least 9 times in 10 on the labelled set,
//     cross-validated) and its sentence is not also a bad or blocker
//     finding: one sentence is never both a bad and a good case ("we may
//     terminate your account at any time" is not also "you can leave at any
//     time").
//
// Neutral findings are listed as their cases but do not move the grade;
// good findings of a category alone carry no case.
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
		if c, ok := caseOf(f, bad); ok && !seen[c.Title] {
			seen[c.Title] = true
			out = append(out, c)
		}
	}
	return out
}

// Counts reports whether a finding moves the grade, given the document's
// findings: the finding's case is among GradeCases and not neutral.
func Counts(f Finding, findings []Finding) bool {
	var bad []Finding
	for _, g := range findings {
		if g.Severity == SeverityBad || g.Severity == SeverityBlocker {
			bad = append(bad, g)
		}
	}
	c, ok := caseOf(f, bad)
	return ok && c.Rating != SeverityNeutral
}

// caseOf is the case a finding counts as, if any (GradeCases's rules);
// bad holds the document's bad and blocker findings.
func caseOf(f Finding, bad []Finding) (Case, bool) {
	title := f.Case
	switch f.Severity {
	case SeverityBad, SeverityBlocker:
		if title == "" {
			title = f.Title
		}
	case SeverityGood:
		if title == "" || !AdmittedGood(title) || slices.ContainsFunc(bad, func(b Finding) bool { return b.Start < f.End && f.Start < b.End }) {
			return Case{}, false
		}
	}
	if title == "" {
		return Case{}, false
	}
	return Case{Title: title, Rating: f.Severity, Category: f.Category}, true
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

// Why is the grade of cases and the rule that gives it, in one sentence,
// with the balance and the thresholds the cases' weight holds them to. It
// is the one explanation of the rule: the CLI prints it and the API sends
// it for the portal.
func Why(cases []Case) string {
	t := tallyOf(cases)
	g := GradeThresholds
	f := g.shrink(t.mass)
	letter := t.letter(g)
	s := fmt.Sprintf("%s from %d good, %d bad and %d blocker cases (%d neutral, not counted): balance %+d (+1 a good case, -1 a bad one, -3 a ToS;DR blocker, -1 a blocker of a category alone); E below %.1f, else D below %.1f or with a ToS;DR blocker, else C below %.1f or with any blocker, else B with a bad case, else A",
		letter, t.Good, t.Bad, t.Blocker, t.Neutral, t.Balance, f*float64(g.EBelow), f*float64(g.DBelow), f*float64(g.CBelow))
	if f < 1 {
		s += fmt.Sprintf(" (thresholds shrunk to %.0f%%: these cases count as %d of a full review's %d)", 100*f, max(t.mass, g.Floor), g.Ref)
	}
	return s + "."
}

// Letter is the letter of a basis of ToS;DR's cases alone (every blocker
// one of theirs, weighing 3): ToS;DR's rule over a service's points.
func (b Basis) Letter(t Thresholds) string {
	return tally{Basis: b, mass: b.Good + b.Bad + 3*b.Blocker, caseBlocker: b.Blocker > 0}.letter(t)
}
