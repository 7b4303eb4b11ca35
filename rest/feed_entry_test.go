package rest

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/monitor"
)

// A feed entry shows the findings an alert kept and says how many more it
// left out, so a capped alert's entry is bounded and still honest.
func TestFeedEntrySaysFindingsOmitted(t *testing.T) {
	a := monitor.Alert{URL: "https://example.com/terms", Summary: "2 paragraphs changed",
		FindingsAdded:        []monitor.AlertFinding{{Category: "arbitration", Severity: "bad", Title: "Arbitration", Quote: "binding arbitration"}},
		FindingsAddedOmitted: 3100, FindingsRemoved: []monitor.AlertFinding{{Severity: "good", Title: "Opt out"}}}
	got, err := entryHTML(a, "terms", "https://clausewatch.example/monitors")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "… and 3100 more new findings, less severe, not shown.") || strings.Contains(got, "more findings gone") {
		t.Errorf("entry:\n%s", got)
	}
}
