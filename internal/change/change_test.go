package change_test

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/change"
)

func paragraphs(ps ...string) string { return strings.Join(ps, "\n\n") }

func TestCompareUnified(t *testing.T) {
	old := paragraphs("Terms", "One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven.", "Eight.", "Nine.")
	cases := []struct {
		name, new, want  string
		added, removed   int
		changed          int
		wantNoDifference bool
	}{
		{name: "white space and a footer date only", new: "Terms\n\n  One.\n\nTwo.   \n\nThree.\n\nFour.\n\nFive.\n\nSix.\n\nSeven.\n\nEight.\n\nNine.",
			wantNoDifference: true},
		{name: "one paragraph rewritten", new: paragraphs("Terms", "One.", "Two.", "Three.", "Four!", "Five.", "Six.", "Seven.", "Eight.", "Nine."),
			want: "--- previous\n+++ current\n@@ -2,7 +2,7 @@\n One.\n Two.\n Three.\n-Four.\n+Four!\n Five.\n Six.\n Seven.\n", added: 1, removed: 1, changed: 1},
		{name: "an insertion at the end", new: paragraphs("Terms", "One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven.", "Eight.", "Nine.", "Ten."),
			want: "--- previous\n+++ current\n@@ -8,3 +8,4 @@\n Seven.\n Eight.\n Nine.\n+Ten.\n", added: 1, changed: 1},
		{name: "two distant changes make two hunks", new: paragraphs("Terms!", "One.", "Two.", "Three.", "Four.", "Five.", "Six.", "Seven.", "Eight."),
			want: "--- previous\n+++ current\n@@ -1,4 +1,4 @@\n-Terms\n+Terms!\n One.\n Two.\n Three.\n@@ -7,4 +7,3 @@\n Six.\n Seven.\n Eight.\n-Nine.\n", added: 1, removed: 2, changed: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := change.Compare(old, c.new)
			if c.wantNoDifference {
				if d != (change.Diff{}) {
					t.Errorf("noise made a diff: %+v", d)
				}
				return
			}
			if d.Unified != c.want || d.Added != c.added || d.Removed != c.removed || d.Changed != c.changed {
				t.Errorf("got %+v\n%s\nwant\n%s", d, d.Unified, c.want)
			}
		})
	}
}

func TestFindingsDeltaMatchesMovedQuotes(t *testing.T) {
	arb := analyze.Finding{Category: "arbitration", Severity: "blocker", Title: "Disputes go to private arbitration", Quote: "Any dispute shall be resolved by binding arbitration."}
	term := analyze.Finding{Category: "unilateral_termination", Severity: "bad", Title: "The company may close your account", Quote: "We may terminate your account."}
	moved := term
	moved.Quote = "  we may TERMINATE your account "
	moved.Start = 400
	added, removed := change.Findings([]analyze.Finding{term}, []analyze.Finding{moved, arb})
	if len(added) != 1 || added[0].Category != "arbitration" || len(removed) != 0 {
		t.Fatalf("added %v removed %v", added, removed)
	}
	added, removed = change.Findings([]analyze.Finding{arb, term}, []analyze.Finding{term})
	if len(added) != 0 || len(removed) != 1 || removed[0].Category != "arbitration" {
		t.Fatalf("added %v removed %v", added, removed)
	}
	got := change.Summary(change.Diff{Changed: 2}, []analyze.Finding{arb}, nil)
	if got != "2 paragraphs changed; added: disputes go to private arbitration (blocker)" {
		t.Errorf("summary %q", got)
	}
	if got := change.Summary(change.Diff{Changed: 1}, nil, []analyze.Finding{term}); got != "1 paragraph changed; removed: the company may close your account (bad)" {
		t.Errorf("summary %q", got)
	}
}

func TestNoiseDatesNeverDiff(t *testing.T) {
	a := paragraphs("Terms of Service", "We may terminate your account.", "Printed on 3 May 2026")
	b := paragraphs("Terms of Service", "We may terminate your account.", "Printed on 4 May 2026")
	if d := change.Compare(a, b); d.Added+d.Removed != 0 {
		t.Errorf("a printed-on date made a diff:\n%s", d.Unified)
	}
}
