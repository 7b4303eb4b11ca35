package analyze

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// at makes a finding of a case at a given probability, on its own span
// (n-th clause of a made-up document).
func at(n int, title, rating string, p float64) Finding {
	return Finding{Category: "other", Severity: rating, Title: title, Case: title, Quote: "clause " + fmt.Sprint(n), Start: 10 * n, End: 10*n + 9, Confidence: p}
}

// cases makes good, bad and ToS;DR blocker findings of distinct cases, each
// on its own clause, at probability p.
func cases(good, bad, blocker int, p float64) []Finding {
	var out []Finding
	add := func(k int, rating string) {
		for i := range k {
			out = append(out, at(len(out), fmt.Sprintf("%s %d", rating, i), rating, p))
		}
	}
	add(good, SeverityGood)
	add(bad, SeverityBad)
	add(blocker, SeverityBlocker)
	return out
}

// The letter from the balance and the blockers, at the cuts' boundaries.
func TestLetterCuts(t *testing.T) {
	cuts := Cuts{E: -10, D: -6, C: -3}
	sold := Finding{Category: "data_sale", Severity: SeverityBlocker, Title: catalog["data_sale"][SeverityBlocker].title, Quote: "we may sell", Start: 1000, End: 1009, Confidence: 1}
	for _, c := range []struct {
		name     string
		findings []Finding
		want     string
	}{
		{"nothing found", nil, "A"},
		{"good cases alone", cases(3, 0, 0, 1), "A"},
		{"one bad case", cases(0, 1, 0, 1), "B"},
		{"three bad: not below -3", cases(0, 3, 0, 1), "B"},
		{"four bad", cases(0, 4, 0, 1), "C"},
		{"six bad: not below -6", cases(0, 6, 0, 1), "C"},
		{"seven bad", cases(0, 7, 0, 1), "D"},
		{"eleven bad", cases(0, 11, 0, 1), "E"},
		{"eleven bad at half certainty", cases(0, 11, 0, 0.5), "C"},
		{"four bad, two good", cases(2, 4, 0, 1), "B"},
		{"a ToS;DR blocker among good cases: D at best", cases(10, 0, 1, 1), "D"},
		{"a blocker of a category alone: C at best", append(cases(5, 0, 0, 1), sold), "C"},
		{"three ToS;DR blockers weigh 9", cases(0, 2, 3, 1), "E"},
	} {
		if got := Judge(cuts, c.findings).Grade; got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// One clause counts once: of findings whose quotes overlap, the blocker or
// bad one with the most weight, never a good one beside a bad one; a case
// counts once, at its likeliest finding.
func TestJudgeCountsEachClauseAndCaseOnce(t *testing.T) {
	f := func(title, rating string, p float64, start, end int) Finding {
		return Finding{Category: "other", Severity: rating, Title: title, Case: title, Quote: title, Start: start, End: end, Confidence: p}
	}
	v := Judge(GradeCuts, []Finding{
		f("terminate", SeverityBad, 0.6, 0, 10),
		f("leave any time", SeverityGood, 0.9, 0, 10), // the same sentence read both ways
		f("no liability", SeverityBad, 0.7, 5, 20),    // overlaps the first, heavier: the clause counts as it
		f("terminate", SeverityBad, 0.5, 30, 40),      // the same case on another clause
		f("terminate", SeverityBad, 0.4, 45, 48),      // and less likely on a third
		f("no sale", SeverityGood, 0.5, 50, 60),
	})
	want := []Evidence{
		{Case: Case{"terminate", SeverityBad, "other"}, Probability: 0.5, Weight: -0.5, Quote: "terminate", Findings: 3},
		{Case: Case{"no liability", SeverityBad, "other"}, Probability: 0.7, Weight: -0.7, Quote: "no liability", Findings: 1},
		{Case: Case{"no sale", SeverityGood, "other"}, Probability: 0.5, Weight: 0.5, Quote: "no sale", Findings: 1},
	}
	if !slices.EqualFunc(v.Evidence, want, func(a, b Evidence) bool {
		return a.Case == b.Case && math.Abs(a.Weight-b.Weight) < 1e-9 && a.Probability == b.Probability && a.Quote == b.Quote && a.Findings == b.Findings
	}) {
		t.Errorf("evidence %+v, want %+v", v.Evidence, want)
	}
	if v.Basis != (Basis{Good: 1, Bad: 2, Balance: -1}) || len(v.Cases) != 4 || math.Abs(v.Balance+0.7) > 1e-9 {
		t.Errorf("basis %+v, balance %v, cases %+v", v.Basis, v.Balance, v.Cases)
	}
}

// The score stays in its letter's band and rises with the balance.
func TestScoreInBandAndMonotone(t *testing.T) {
	prev := map[string]int{}
	for bad := 40; bad >= 0; bad-- {
		for _, p := range []float64{1, 0.75, 0.5, 0.25} {
			v := Judge(GradeCuts, cases(0, bad, 0, p))
			lo := 80 - 20*int(v.Grade[0]-'A')
			if v.Score < lo || v.Score > lo+20 || v.Score > 100 || v.Score < 0 || v.Grade != "A" && v.Score == lo+20 {
				t.Fatalf("%d bad at %v: score %d outside %s's band", bad, p, v.Score, v.Grade)
			}
		}
		v := Judge(GradeCuts, cases(0, bad, 0, 1))
		if q, ok := prev[v.Grade]; ok && v.Score < q {
			t.Fatalf("%d bad: score %d below %d at a lower balance", bad, v.Score, q)
		}
		prev[v.Grade] = v.Score
	}
	if v := Judge(GradeCuts, nil); v.Grade != "A" || v.Score != 90 {
		t.Errorf("nothing found: %s %d, want A 90", v.Grade, v.Score)
	}
}

// Over many made-up sets of findings at random probabilities: one more bad
// or blocker finding on a new clause never raises the letter or the score,
// one more good finding never lowers them, under the shipped cuts and
// others.
func TestGradeMonotoneOverFindings(t *testing.T) {
	rnd := rand.New(rand.NewPCG(30, 1))
	ratings := []string{SeverityGood, SeverityBad, SeverityBlocker, SeverityNeutral}
	for _, cuts := range []Cuts{GradeCuts, {E: -20, D: -12, C: -5}, {E: -3, D: -2, C: -1}} {
		for range 2000 {
			var fs []Finding
			for i := range rnd.IntN(30) {
				title := fmt.Sprintf("case %d", rnd.IntN(12))
				rating := ratings[rnd.IntN(len(ratings))]
				fs = append(fs, at(i, title+" "+rating, rating, rnd.Float64()))
			}
			base := Judge(cuts, fs)
			for _, rating := range ratings[:3] {
				title := fmt.Sprintf("case %d %s", rnd.IntN(14), rating)
				v := Judge(cuts, append(slices.Clone(fs), at(len(fs), title, rating, rnd.Float64())))
				worse := v.Grade < base.Grade || v.Score > base.Score
				better := v.Grade > base.Grade || v.Score < base.Score
				if rating == SeverityGood && better || rating != SeverityGood && worse {
					t.Fatalf("%+v: a %s finding moved %s %d to %s %d", cuts, rating, base.Grade, base.Score, v.Grade, v.Score)
				}
			}
		}
	}
}

// checkGradeBasis holds a result to the grade's contract: every case of a
// bad or blocker finding is in the basis, the basis counts what the
// verdict counts, and a blocker never sits under an A or a B.
func checkGradeBasis(t *testing.T, r Result) {
	t.Helper()
	for _, f := range r.Findings {
		if (f.Severity == SeverityBad || f.Severity == SeverityBlocker) && !slices.Contains(r.Cases, caseOfFinding(f)) {
			t.Errorf("%s finding %q (%q) is not among the cases %+v", f.Severity, f.Title, f.Quote, r.Cases)
		}
	}
	v := Judge(GradeCuts, r.Findings)
	if r.Basis != v.Basis || r.Grade != v.Grade && r.Grade != "" {
		t.Errorf("result %s %+v, its findings judge %s %+v", r.Grade, r.Basis, v.Grade, v.Basis)
	}
	if r.Basis.Blocker > 0 && r.Grade != "" && r.Grade < "C" {
		t.Errorf("grade %s with %d blocker cases", r.Grade, r.Basis.Blocker)
	}
}

// The findings the reader sees are the grade's basis: a blocker found by a
// category alone grades C at best, a sentence read as both a bad and a good
// case counts only as the bad one.
func TestGradeFromFindings(t *testing.T) {
	for _, c := range []struct {
		text, best, worst string
		bad               int
	}{
		{"We may sell your personal data to anyone.", "C", "E", 1},
		{"We share your personal information with advertisers.", "B", "D", 1},
		// also read as "You have the right to leave this service at any time"
		{"We may terminate your account at any time.", "B", "B", 1},
	} {
		r := engine(t).Analyze(c.text, Options{DocumentType: "terms"})
		checkGradeBasis(t, r)
		if r.Basis.Bad+r.Basis.Blocker != c.bad || r.Basis.Good != 0 || r.Grade > c.worst || r.Grade < c.best {
			t.Errorf("%q: grade %s, basis %+v, want %s..%s and %d bad, no good", c.text, r.Grade, r.Basis, c.best, c.worst, c.bad)
		}
	}
	for _, text := range []string{unfairTerms, benignPrivacy, mustRead(t, filepath.Join("testdata", "terms-streamly.txt")), mustRead(t, filepath.Join("testdata", "privacy-adtech.txt"))} {
		checkGradeBasis(t, engine(t).Analyze(text, Options{DocumentType: "terms"}))
	}
}

// Documents made of clauses drawn at random: adding a paragraph with a bad
// or blocker clause never raises the grade or the score, adding one with a
// good clause never lowers them, and the basis always matches the findings.
func TestGradeMonotoneOverDocuments(t *testing.T) {
	bad := []string{
		"We may sell your personal data to anyone.",
		"We may terminate your account at any time.",
		"We may change these Terms at any time without notice.",
		"We share your personal information with advertisers.",
		"We may suspend or terminate your account for any reason, without notice.",
		"We are not liable for any damages arising from your use of the Service.",
		"We keep your data indefinitely, even after you delete your account.",
		arbitrationTerms,
	}
	good := []string{
		"We do not sell your personal information.",
		"You may close your account at any time.",
		"We will notify you by email at least 30 days before any material change to this notice takes effect.",
		"We delete your data within 30 days after you close your account.",
		"You have the right to access, correct and delete your personal data at any time from the settings page.",
	}
	neutral := []string{
		"We use cookies to remember your preferences.",
		"These Terms are governed by the laws of the State of California.",
		"By using the Service you agree to these Terms.",
	}
	all := slices.Concat(bad, good, neutral)
	rnd := rand.New(rand.NewPCG(21, 1))
	docs := [][]string{{"We may suspend or terminate your account for any reason, without notice."}}
	for range 100 {
		var paras []string
		for range rnd.IntN(12) {
			paras = append(paras, all[rnd.IntN(len(all))])
		}
		docs = append(docs, paras)
	}
	e := engine(t)
	for _, paras := range docs {
		at := rnd.IntN(len(paras) + 1)
		with := func(s string) string {
			return strings.Join(slices.Insert(slices.Clone(paras), at, s), "\n\n")
		}
		base := e.Analyze(with(""), Options{DocumentType: "terms"})
		checkGradeBasis(t, base)
		for _, s := range bad {
			r := e.Analyze(with(s), Options{DocumentType: "terms"})
			checkGradeBasis(t, r)
			if base.Graded() && (r.Grade < base.Grade || r.Score > base.Score) {
				t.Errorf("a bad clause raised %s %d to %s %d:\n%s", base.Grade, base.Score, r.Grade, r.Score, with(s))
			}
		}
		for _, s := range good {
			r := e.Analyze(with(s), Options{DocumentType: "terms"})
			checkGradeBasis(t, r)
			if base.Graded() && (r.Grade > base.Grade || r.Score < base.Score) {
				t.Errorf("a good clause lowered %s %d to %s %d:\n%s", base.Grade, base.Score, r.Grade, r.Score, with(s))
			}
		}
	}
}

// Confidence is low for a short text, a document that is neither terms nor
// a privacy policy, one mostly not read as clauses, or a letter resting on
// few cases or on categories' default cases alone; high for a full
// document read almost whole whose balance sits well inside its letter.
func TestConfidence(t *testing.T) {
	long := strings.Repeat(benignPrivacy+"\n", 12)
	headings := strings.Repeat("Home\nPricing\nAbout us\nContact\n\n", 40) + benignPrivacy
	for _, c := range []struct {
		text, docType, want string
	}{
		{"We may sell your personal data to anyone.", "privacy", ConfidenceLow},
		{long, "other", ConfidenceLow},
		{headings, "privacy", ConfidenceLow},
		{benignPrivacy, "privacy", ConfidenceLow},
	} {
		r := engine(t).Analyze(c.text, Options{DocumentType: c.docType})
		if r.Confidence != c.want || r.Coverage < 0 || r.Coverage > 1 {
			t.Errorf("%.40q (%s): confidence %s, coverage %v, want %s", c.text, c.docType, r.Confidence, r.Coverage, c.want)
		}
	}
	if r := engine(t).Analyze("", Options{}); r.Coverage != 0 || r.Confidence != ConfidenceLow {
		t.Errorf("empty text: coverage %v, confidence %s", r.Coverage, r.Confidence)
	}
	// the same full document, judged on many sure cases, on too few, on
	// default cases alone, and near a cut
	sold := Finding{Category: "data_sale", Severity: SeverityBlocker, Title: catalog["data_sale"][SeverityBlocker].title, Quote: "we may sell", Start: 1000, End: 1009, Confidence: 0.9}
	for _, c := range []struct {
		name string
		v    Verdict
		want string
	}{
		{"twenty sure bad cases", Judge(GradeCuts, cases(0, 20, 0, 1)), ConfidenceHigh},
		{"two cases", Judge(GradeCuts, cases(1, 1, 0, 1)), ConfidenceLow},
		{"a category's default case alone", Judge(GradeCuts, []Finding{sold, sold, sold}), ConfidenceLow},
		{"twelve cases, their balance at D's cut", Judge(GradeCuts, cases(0, 12, 0, 0.75)), ConfidenceLow},
	} {
		if got := confidence("terms", 0.9, 5000, c.v, GradeCuts); got != c.want {
			t.Errorf("%s (balance %.1f ± %.1f): confidence %s, want %s", c.name, c.v.Balance, c.v.Spread, got, c.want)
		}
	}
}

// The shipped cuts are in the letters' order.
func TestCutsInOrder(t *testing.T) {
	if c := GradeCuts; !(c.E <= c.D && c.D <= c.C && c.C <= 0) {
		t.Errorf("%+v: cuts out of the letters' order", c)
	}
}
