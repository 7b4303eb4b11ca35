package main

import (
	"math"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// A hand-made document of four sentences and three findings: the scorer
// maps findings to sentences by offset overlap and counts, per case, hits,
// misses and false alarms, leaving summary sentences out.
func TestMatchAndScore(t *testing.T) {
	const (
		arb    = "This service forces users into binding arbitration in the case of disputes"
		class  = "You waive your right to a class action."
		change = "Terms may be changed any time at their discretion, without notice to the user"
	)
	text := "Summary: disputes go to arbitration.\n\nAll disputes are settled by binding arbitration.\n\nYou waive any class action.\n\nWe may change these terms at any time."
	spans := analyze.Sentences(text)
	if len(spans) != 4 {
		t.Fatalf("%d sentences, want 4: %v", len(spans), spans)
	}
	ls := []Label{
		{Sentence: 0, Kind: "summary"},
		{Sentence: 1, Kind: "clause", Actor: "user", Case: arb},
		{Sentence: 2, Kind: "clause", Actor: "user", Case: class},
		{Sentence: 3, Kind: "clause", Actor: "service", Case: change},
	}
	findings := []analyze.Finding{
		// One finding over the summary and the arbitration clause: a hit
		// there, nothing on the ignored summary.
		{Case: arb, Start: spans[0].Start, End: spans[1].End},
		// Overlapping the class-action sentence by one code point, with
		// the wrong case: a false alarm for arbitration, a miss for class
		// action.
		{Case: arb, Start: spans[2].End - 1, End: spans[2].End},
		// A category alone carries no case and is not scored.
		{Category: "unilateral_change", Start: spans[3].Start, End: spans[3].End},
	}
	ss := match(text, findings, ls)
	want := [][]string{{arb}, {arb}, {arb}, nil}
	for i, s := range ss {
		if len(s.found) != len(want[i]) || len(want[i]) > 0 && s.found[0] != want[i][0] {
			t.Errorf("sentence %d found %q, want %q", i, s.found, want[i])
		}
	}
	cs := scoreCases(ss)
	for c, w := range map[string]count{arb: {tp: 1, fp: 1}, class: {fn: 1}, change: {fn: 1}} {
		if cs[c] != w {
			t.Errorf("%.30s: %+v, want %+v", c, cs[c], w)
		}
	}
	if p, r := cs[arb].precision(), cs[arb].recall(); p != 0.5 || r != 1 {
		t.Errorf("arbitration P %v R %v, want 0.5 and 1", p, r)
	}
	if !math.IsNaN(cs[class].precision()) {
		t.Errorf("class action never found: precision %v, want NaN", cs[class].precision())
	}
	// As one group, arbitration found on the class-action sentence is a hit.
	if g := scoreGroup(ss, []string{arb, class}); g != (count{tp: 2}) {
		t.Errorf("group: %+v, want 2 hits", g)
	}
}
