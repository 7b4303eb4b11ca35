package analyze

import (
	"cmp"
	"math"
	"slices"
)

// Case is a ToS;DR case found in a document: what a finding's Case names,
// with the case's rating (the finding's severity) and our category. A
// finding of a category alone stands for its category's default case,
// titled as the finding.
type Case struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"` // blocker | bad | neutral | good
	Category string `json:"category"`
}

// Basis is what a grade is computed from: the distinct cases that count,
// by rating, and the balance (the evidence's signed weights added up,
// rounded; see Evidence).
type Basis struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

// Evidence is one distinct case of a document (or a batch) with what it
// weighs: its case weight (1; 3 for a ToS;DR blocker) times the calibrated
// probability of its likeliest finding, signed (+ good, - bad or blocker,
// 0 neutral), and that finding's quote and how many findings stand for it.
type Evidence struct {
	Case
	Probability float64
	Weight      float64
	Quote       string
	Findings    int
}

// caseWeight is what a case moves the balance by when it is sure: 1, and 3
// for a blocker case of ToS;DR's (ToS;DR's rule); a blocker of a category
// alone (the privacy patterns' "may be sold", often CCPA rights text)
// weighs like a bad case.
func caseWeight(title, rating string) float64 {
	switch rating {
	case SeverityGood, SeverityBad:
		return 1
	case SeverityBlocker:
		if IsDefaultCase(title) {
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

// Cuts are the balances below which a document grades E, D and C
// (E <= D <= C <= 0).
type Cuts struct{ E, D, C float64 }

// GradeCuts are the cuts the engine grades with, fitted by cmd/eval-grades
// on the development grades (ToS;DR's silver grades and dev-grades.jsonl),
// every document against its service's grade, each service's documents
// graded by cuts fitted without it (README-grade.md). Cuts of their own for
// privacy policies scored worse that way (their balances say almost
// nothing of their service's grade), so terms and policies share these.
var GradeCuts = Cuts{E: -13, D: -9, C: -1}

// Verdict is a grade with everything it rests on.
type Verdict struct {
	Grade    string
	Score    int
	Basis    Basis
	Cases    []Case     // distinct, in order of first appearance, neutral ones too
	Evidence []Evidence // the cases that count, in the same order
	// Balance is the evidence's weights added up; Spread its standard
	// deviation if each case were there with its probability.
	Balance, Spread float64
	caseBlocker     bool // a ToS;DR blocker counts: D at best
	defaultBlocker  bool // a blocker of a category alone counts: C at best
}

// Judge grades the findings of one document, or of several documents
// together (a batch, as ToS;DR grades a service from all its documents):
//
//   - each finding weighs its case's weight times its calibrated
//     probability (Probability; its Confidence in a Result): good and bad
//     alike, no case admitted or refused outright;
//   - within a document, findings whose quotes overlap are one clause and
//     count once, whatever their cases: as their heaviest blocker by
//     calibrated weight, else their heaviest bad finding (a sentence is
//     never both a bad and a good case: "we may terminate your account at
//     any time" is not also "you can leave at any time"), else their
//     heaviest good one; the others stay findings the reader sees;
//   - a case counts once, with its likeliest finding;
//   - the letter: E below cuts.E, D below cuts.D or with a ToS;DR blocker,
//     C below cuts.C or with a blocker of a category alone, B with any
//     bad case, else A.
//
// Adding a finding on a new sentence moves the balance its way only, and
// blockers and bad cases only ever worsen the letter, so a bad finding
// never raises the grade and a good one never lowers it.
func Judge(cuts Cuts, docs ...[]Finding) Verdict {
	var v Verdict
	at := map[string]int{} // title -> index in v.Cases / v.Evidence
	var ev []Evidence
	var counted []bool // whether a clause counts ev[i]'s case
	for _, findings := range docs {
		for _, cl := range clauses(findings) {
			for _, f := range cl.all {
				c := caseOfFinding(*f)
				i, ok := at[c.Title]
				if !ok {
					i = len(ev)
					at[c.Title] = i
					ev = append(ev, Evidence{Case: c})
					counted = append(counted, false)
				}
				ev[i].Findings++
				if f != cl.counted {
					continue
				}
				if !counted[i] || f.Confidence > ev[i].Probability {
					ev[i].Probability, ev[i].Quote = f.Confidence, f.Quote
				}
				counted[i] = true
			}
		}
	}
	variance := 0.0
	for i := range ev {
		e := &ev[i]
		v.Cases = append(v.Cases, e.Case)
		if !counted[i] || e.Rating == SeverityNeutral {
			if e.Rating == SeverityNeutral {
				v.Basis.Neutral++
			}
			continue // no finding of the case counted
		}
		w := caseWeight(e.Title, e.Rating)
		e.Weight = w * e.Probability
		switch e.Rating {
		case SeverityGood:
			v.Basis.Good++
		case SeverityBad:
			v.Basis.Bad++
			e.Weight = -e.Weight
		case SeverityBlocker:
			v.Basis.Blocker++
			e.Weight = -e.Weight
			if IsDefaultCase(e.Title) {
				v.defaultBlocker = true
			} else {
				v.caseBlocker = true
			}
		}
		v.Balance += e.Weight
		variance += w * w * e.Probability * (1 - e.Probability)
		v.Evidence = append(v.Evidence, *e)
	}
	if v.Cases == nil {
		v.Cases = []Case{}
	}
	v.Spread = math.Sqrt(variance)
	v.Basis.Balance = int(math.Round(v.Balance))
	v.Grade = v.letter(cuts)
	v.Score = v.score(v.Grade, cuts)
	return v
}

// clause is findings whose quotes overlap, and the one that counts.
type clause struct {
	all     []*Finding
	counted *Finding
}

// clauses groups a document's findings by overlapping quotes and picks
// each group's counted finding (Judge's rules); findings of no case
// (neutral or good of a category alone without a default title) are
// grouped too, so they never count beside a bad one.
func clauses(findings []Finding) []clause {
	idx := make([]int, len(findings))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(findings[a].Start, findings[b].Start) })
	var out []clause
	end := -1
	for _, i := range idx {
		f := &findings[i]
		if len(out) == 0 || f.Start >= end {
			out = append(out, clause{})
			end = f.End
		}
		cl := &out[len(out)-1]
		cl.all = append(cl.all, f)
		end = max(end, f.End)
	}
	for k := range out {
		cl := &out[k]
		// the heaviest blocker, else bad, else good finding, by
		// calibrated weight
		var best *Finding
		for _, f := range cl.all {
			if best == nil || side(f.Severity) < side(best.Severity) ||
				side(f.Severity) == side(best.Severity) && mass(f) > mass(best) {
				best = f
			}
		}
		cl.counted = best
		// restore document order within the clause
		slices.SortStableFunc(cl.all, func(a, b *Finding) int { return cmp.Compare(a.Start, b.Start) })
	}
	return out
}

// side orders ratings for a clause: a blocker first (a blocker finding the
// reader sees always holds the letter below B, however likely a bad case
// on the same clause), then bad, good and neutral; within a side the
// heaviest by calibrated weight counts. A clause read both as a risk and
// as a protection counts as the risk.
func side(rating string) int {
	switch rating {
	case SeverityBlocker:
		return 0
	case SeverityBad:
		return 1
	case SeverityGood:
		return 2
	}
	return 3
}

func mass(f *Finding) float64 {
	c := caseOfFinding(*f)
	return caseWeight(c.Title, c.Rating) * f.Confidence
}

// caseOfFinding is the case a finding stands for: its ToS;DR case, or its
// category's default case, titled as the finding.
func caseOfFinding(f Finding) Case {
	return Case{Title: cmp.Or(f.Case, f.Title), Rating: f.Severity, Category: f.Category}
}

func (v Verdict) letter(c Cuts) string {
	switch {
	case v.Balance < c.E:
		return "E"
	case v.Balance < c.D || v.caseBlocker:
		return "D"
	case v.Balance < c.C || v.defaultBlocker:
		return "C"
	case v.Basis.Bad > 0:
		return "B"
	}
	return "A"
}

// LetterWith is the letter the verdict's evidence gets under other cuts
// (cmd/eval-grades fits them).
func (v Verdict) LetterWith(c Cuts) string { return v.letter(c) }

// score maps the balance to 0..100 in the letter's band of twenty points
// (A 80-100, B 60-79, C 40-59, D 20-39, E 0-19), so a higher score never
// has a worse letter: within its band it rises with the balance across the
// letter's range of balances (E's from twice its cut; B's up to 0; A's
// from -5 to +5, so a document where nothing counts scores 90).
func (v Verdict) score(letter string, c Cuts) int {
	band := func(lo, from, to float64) int {
		return int(lo + math.Round(19*min(1, max(0, (v.Balance-from)/(to-from)))))
	}
	switch letter {
	case "E":
		return band(0, 2*c.E, c.E)
	case "D":
		return band(20, c.E, c.D)
	case "C":
		return band(40, c.D, c.C)
	case "B":
		return band(60, c.C, 0)
	}
	return 80 + int(math.Round(20*min(1, max(0, (v.Balance+5)/10))))
}
