package main

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// The reading report counts a clause read right on its actor and modality,
// a non-clause detected as its kind, and splits the gate's drops into
// labelled positives lost and false alarms removed, summaries aside.
func TestPrintReading(t *testing.T) {
	const arb = "This service forces users into binding arbitration in the case of disputes"
	rs := []readSentence{
		{Label: Label{Type: "Terms of Service", Kind: "clause", Actor: "service", Modality: "right", Case: arb},
			read: analyze.Reading{Actor: analyze.ActorService, Modality: analyze.ModRight}, dropped: []string{arb}},
		{Label: Label{Type: "Privacy Policy", Kind: "clause", Actor: "user", Modality: "obligation"},
			read: analyze.Reading{Actor: analyze.ActorNone}, held: true},
		{Label: Label{Type: "Terms of Service", Kind: "heading", Actor: "none", Modality: "none"},
			kind: analyze.KindHeading, dropped: []string{arb}},
		{Label: Label{Type: "Terms of Service", Kind: "summary", Actor: "none", Modality: "none"},
			kind: analyze.KindHeading, dropped: []string{arb}},
	}
	var b strings.Builder
	printReading(&b, rs)
	out := b.String()
	for _, want := range []string{
		"  all              2  0.50 (1 of 2;",
		"  held back        1  0.00 (0 of 1;",
		"  heading          0.50 (1 of 2;",
		"labelled positives dropped     1 (0 as not a clause, 1 by the reading)",
		"false alarms removed           1 (1 as not a clause, 0 by the reading)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
