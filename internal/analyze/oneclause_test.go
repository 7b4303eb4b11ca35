package analyze

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// One clause moves the grade once (issue 30 item 3): findings of
// different cases on one sentence span count as one of them, the
// weightiest by calibrated weight of the worst side (a blocker, whose
// finding the reader sees keeps the letter below B, before a bad case,
// before a good one), so the balance is what that finding alone gives;
// the other findings stay for the reader.
func TestOneClauseCountsItsWeightiestCase(t *testing.T) {
	f := func(title, rating string, p float64) Finding {
		return Finding{Category: "other", Severity: rating, Title: title, Case: title, Quote: "one sentence", Start: 100, End: 160, Confidence: p}
	}
	base := cases(1, 2, 0, 0.7) // other clauses of the document
	for _, c := range []struct {
		name        string
		both        []Finding
		weightiest  int
		wantBlocker bool
	}{
		{"two bad cases", []Finding{f("arbitration", SeverityBad, 0.6), f("class action", SeverityBad, 0.8)}, 1, false},
		{"a likely blocker over a bad case", []Finding{f("moral rights", SeverityBlocker, 0.5), f("licence", SeverityBad, 0.9)}, 0, true},
		{"an unlikely blocker over a likelier bad case", []Finding{f("moral rights", SeverityBlocker, 0.2), f("licence", SeverityBad, 0.9)}, 0, true},
		{"the heavier of two blockers", []Finding{f("moral rights", SeverityBlocker, 0.3), f("kept after deletion", SeverityBlocker, 0.6)}, 1, true},
		{"a bad case over a heavier good one", []Finding{f("leave any time", SeverityGood, 0.95), f("terminate", SeverityBad, 0.3)}, 1, false},
		{"two good cases", []Finding{f("no sale", SeverityGood, 0.4), f("deletion", SeverityGood, 0.7)}, 1, false},
	} {
		v := Judge(GradeCuts, slices.Concat(base, c.both))
		alone := Judge(GradeCuts, append(slices.Clone(base), c.both[c.weightiest]))
		if math.Abs(v.Balance-alone.Balance) > 1e-9 || v.Grade != alone.Grade || v.Score != alone.Score {
			t.Errorf("%s: balance %.3f %s %d, its weightiest case alone %.3f %s %d", c.name, v.Balance, v.Grade, v.Score, alone.Balance, alone.Grade, alone.Score)
		}
		if (v.Basis.Blocker > 0) != c.wantBlocker {
			t.Errorf("%s: basis %+v, blocker counted %v", c.name, v.Basis, !c.wantBlocker)
		}
		// every case found is listed, counted or not
		for _, g := range c.both {
			if !slices.Contains(v.Cases, caseOfFinding(g)) {
				t.Errorf("%s: case %q not listed", c.name, g.Title)
			}
		}
	}
}

// On a real sentence read as two cases, the document's grade is the one
// its weightiest finding on that sentence gives alone: dropping the
// sentence's other findings moves nothing.
func TestOneSentenceMovesTheGradeOnce(t *testing.T) {
	sentence := "To use the Service, you must agree to resolve all disputes by binding individual arbitration and waive any class action."
	text := strings.Join([]string{
		"We may change these Terms at any time without notice.",
		"We do not sell your personal information.",
		sentence,
		"These Terms are governed by the laws of the State of California.",
	}, "\n\n")
	r := engine(t).Analyze(text, Options{DocumentType: "terms"})
	start := len([]rune(text[:strings.Index(text, sentence)]))
	var on []Finding
	rest := []Finding{}
	for _, g := range r.Findings {
		if g.Start < start+len([]rune(sentence)) && g.End > start {
			on = append(on, g)
		} else {
			rest = append(rest, g)
		}
	}
	titles := map[string]bool{}
	for _, g := range on {
		if g.Severity == SeverityBad || g.Severity == SeverityBlocker {
			titles[caseOfFinding(g).Title] = true
		}
	}
	if len(titles) < 2 {
		t.Fatalf("the sentence reads as %d risk cases, the test needs two: %+v", len(titles), on)
	}
	heaviest := slices.MaxFunc(on, func(a, b Finding) int {
		return cmpRisk(a, b)
	})
	alone := Judge(GradeCuts, append(slices.Clone(rest), heaviest))
	if math.Abs(alone.Balance-Judge(GradeCuts, r.Findings).Balance) > 1e-9 || alone.Grade != r.Grade || alone.Score != r.Score {
		t.Errorf("with its %d findings %s %d (%+v); its weightiest (%s) alone %s %d (%+v)", len(on), r.Grade, r.Score, r.Basis, heaviest.Title, alone.Grade, alone.Score, alone.Basis)
	}
	without := Judge(GradeCuts, rest)
	if d := without.Balance - alone.Balance; math.Abs(d-mass(&heaviest)) > 1e-9 {
		t.Errorf("the sentence moves the balance by %.3f, its weightiest case weighs %.3f", d, mass(&heaviest))
	}
}

// cmpRisk orders findings as a clause counts them: blockers, bad, good
// and neutral ones, then by calibrated weight.
func cmpRisk(a, b Finding) int {
	switch {
	case side(a.Severity) != side(b.Severity):
		return side(b.Severity) - side(a.Severity)
	case mass(&a) < mass(&b):
		return -1
	case mass(&a) > mass(&b):
		return 1
	}
	return 0
}
