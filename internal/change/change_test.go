package change_test

import (
	"context"
	"errors"
	"fmt"
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

// numbered is n distinct paragraphs named by f.
func numbered(n int, f func(i int) string) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = f(i)
	}
	return paragraphs(ps...)
}

// Past 55,296 distinct lines go-diff's line numbers were no longer numbers
// and Compare panicked, taking the scheduler's process with it.
func TestCompareManyDistinctParagraphs(t *testing.T) {
	para := func(i int) string { return fmt.Sprintf("Section %d applies.", i) }
	old := numbered(60000, para)
	t.Run("a few changed: an exact diff", func(t *testing.T) {
		cur := numbered(60000, func(i int) string {
			if i == 59990 {
				return "Section 59990 no longer applies."
			}
			return para(i)
		})
		d := change.Compare(old, cur)
		want := "--- previous\n+++ current\n@@ -59988,7 +59988,7 @@\n Section 59987 applies.\n Section 59988 applies.\n Section 59989 applies.\n-Section 59990 applies.\n+Section 59990 no longer applies.\n Section 59991 applies.\n Section 59992 applies.\n Section 59993 applies.\n"
		if d.Summarised || d.Unified != want || d.Added != 1 || d.Removed != 1 || d.Changed != 1 {
			t.Errorf("got %+v\n%s", d, d.Unified)
		}
	})
	t.Run("all changed: summarised within the bound", func(t *testing.T) {
		cur := numbered(60000, func(i int) string { return fmt.Sprintf("Section %d applied.", i) })
		d := change.Compare(old, cur)
		if want := (change.Diff{Added: 60000, Removed: 60000, Changed: 60000, Summarised: true}); d != want {
			t.Errorf("got %+v, want %+v", d, want)
		}
		if got := change.Summary(d, nil, nil); got != "up to 60000 paragraphs changed (too many differences to show line by line)" {
			t.Errorf("summary %q", got)
		}
	})
	t.Run("summarised counts span the first difference to the last", func(t *testing.T) {
		cur := numbered(60000, func(i int) string {
			if i >= 100 && i < 59900 && i%2 == 0 {
				return fmt.Sprintf("Section %d was rewritten.", i)
			}
			return para(i)
		})
		d := change.Compare(old, cur)
		if !d.Summarised || d.Added != 59799 || d.Removed != 59799 || d.Unified != "" {
			t.Errorf("got %+v", d)
		}
	})
}

func TestCompareStopsWithItsContext(t *testing.T) {
	old := numbered(60000, func(i int) string { return fmt.Sprintf("Section %d applies.", i) })
	cur := numbered(60000, func(i int) string { return fmt.Sprintf("Section %d applied.", i) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := change.CompareContext(ctx, old, cur); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
