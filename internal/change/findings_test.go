package change_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/change"
)

// finding is a finding of case c quoting q where it first appears in text.
func finding(t *testing.T, text, c, q string) analyze.Finding {
	t.Helper()
	i := strings.Index(text, q)
	if i < 0 {
		t.Fatalf("%q not in the text", q)
	}
	start := utf8.RuneCountInString(text[:i])
	return analyze.Finding{Category: "unilateral_termination", Case: c, Severity: "bad", Title: c, Quote: q,
		Start: start, End: start + utf8.RuneCountInString(q)}
}

// A finding whose quote boundary moved, in a paragraph left as it was or
// in one rewritten around it, is the same finding: neither added nor
// removed. Matching by quote alone (Findings) saw one added and one removed
// each time; the same case elsewhere in the document is still new.
func TestFindingsMovedBoundary(t *testing.T) {
	const terminate = "The service can delete your account without prior notice"
	para := "Termination. We may terminate your account at any time. We will not tell you why."
	old := paragraphs("Terms", para, "Contact us by email.")
	cases := []struct {
		name             string
		new              string
		oldQuote         string
		newQuotes        []string
		added, removed   int
		byQuoteAlsoMoved bool // Findings alone reports a change
	}{
		{name: "unchanged paragraph, the sentence split differently", new: old,
			oldQuote: "We may terminate your account at any time.", newQuotes: []string{"Termination. We may terminate your account at any time. We will not tell you why."},
			byQuoteAlsoMoved: true},
		{name: "paragraph rewritten around the quote", new: paragraphs("Terms", "Termination. We may terminate your account at any time, for any reason. We will not tell you why.", "Contact us by email."),
			oldQuote: "We may terminate your account at any time.", newQuotes: []string{"We may terminate your account at any time, for any reason."},
			byQuoteAlsoMoved: true},
		{name: "the paragraph moved whole", new: paragraphs("Terms", "Contact us by email.", para),
			oldQuote: "We may terminate your account at any time.", newQuotes: []string{"We may terminate your account at any time."}},
		{name: "the same case added elsewhere", new: paragraphs("Terms", para, "Contact us by email.", "Suspension. We may also suspend your account at any time."),
			oldQuote: "We may terminate your account at any time.", newQuotes: []string{"We may terminate your account at any time.", "We may also suspend your account at any time."},
			added: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			oldF := []analyze.Finding{finding(t, old, terminate, c.oldQuote)}
			var newF []analyze.Finding
			for _, q := range c.newQuotes {
				newF = append(newF, finding(t, c.new, terminate, q))
			}
			added, removed := change.FindingsMoved(old, c.new, oldF, newF)
			if len(added) != c.added || len(removed) != c.removed {
				t.Errorf("added %v removed %v, want %d and %d", added, removed, c.added, c.removed)
			}
			if a, r := change.Findings(oldF, newF); c.byQuoteAlsoMoved && len(a)+len(r) == 0 {
				t.Errorf("matching by quote alone saw no change: the case tests nothing")
			}
		})
	}
}
