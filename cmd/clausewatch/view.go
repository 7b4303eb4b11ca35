package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/excerpt"
)

// printAnalysis is the terminal view: grade first, with its basis and the
// cases behind it, then each finding with its quote, why it matters and
// what to check.
func printAnalysis(w io.Writer, a *app.Analysis) error {
	bw := bufio.NewWriter(w)
	src := a.Source
	title := src.Title
	if title == "" {
		title = "(untitled)"
	}
	facts := []string{src.DocumentType}
	if src.Language != "" {
		facts = append(facts, src.Language)
	}
	minutes := "under 1 min"
	if m := a.Readability.ReadingMinutes; m >= 0.5 {
		minutes = fmt.Sprintf("about %.0f min", m)
	}
	facts = append(facts, fmt.Sprintf("%d words", src.WordCount), minutes+" to read", fmt.Sprintf("grade level %.1f", a.Readability.FleschKincaidGrade))
	fmt.Fprintf(bw, "%s\n%s\n\n", title, strings.Join(facts, ", "))
	fmt.Fprintf(bw, "Grade %s  (score %d/100)\n", a.Grade, a.Score)
	if a.Confidence != "" {
		fmt.Fprintf(bw, "  Confidence %s: %.0f%% of the text read as clauses.\n", a.Confidence, 100*a.Coverage)
	}
	if a.Basis != nil {
		printWhy(bw, a)
	}
	fmt.Fprintln(bw)
	if len(a.Findings) == 0 {
		fmt.Fprintln(bw, "No clauses stood out.")
	}
	for i, f := range a.Findings {
		fmt.Fprintln(bw, wrap(fmt.Sprintf("%2d. ", i+1), "    ", "["+strings.ToUpper(f.Severity)+"] "+f.Title+" ("+f.Category+")"))
		fmt.Fprintln(bw, wrap("    ", "    ", `"`+shorten(f.Quote, 300)+`"`))
		fmt.Fprintln(bw, wrap("    Why it matters: ", "                    ", f.Explanation))
		fmt.Fprintln(bw, wrap("    What to check:  ", "                    ", f.Guidance))
		fmt.Fprintln(bw)
	}
	if len(a.Guidance) > 0 {
		fmt.Fprintln(bw, "Review checklist:")
		for _, g := range a.Guidance {
			fmt.Fprintln(bw, wrap("  - ", "    ", g))
		}
	}
	fmt.Fprintln(bw, "\n"+a.Disclaimer)
	return bw.Flush()
}

// printWhy explains the grade under the letter in the why's own words
// (analyze.Explain): the clauses that decided it with their quotes, what
// weighed in the document's favour, what would change the letter, and the
// rule last, each paragraph wrapped and each listed clause indented.
func printWhy(bw io.Writer, a *app.Analysis) {
	for _, para := range strings.Split(a.Why(), "\n\n") {
		for _, line := range strings.Split(para, "\n") {
			if item, ok := strings.CutPrefix(line, "- "); ok {
				fmt.Fprintln(bw, wrap("    - ", "      ", item))
				continue
			}
			fmt.Fprintln(bw, wrap("  ", "  ", line))
		}
	}
}

// lineWidth is where the terminal view wraps: readable in any terminal and
// in a pager.
const lineWidth = 80

// wrap lays words out in lines of at most lineWidth code points (a longer
// word gets a line of its own), the first line starting with first and the
// others with indent.
func wrap(first, indent, s string) string {
	var b strings.Builder
	b.WriteString(first)
	col := utf8.RuneCountInString(first)
	start := col
	for _, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		if col > start && col+1+n > lineWidth {
			b.WriteString("\n" + indent)
			col = utf8.RuneCountInString(indent)
			start = col
		} else if col > start {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}

// shorten puts a quote on one line, marking its line breaks (a heading and
// the clause under it) with a dash, and cuts it at n code points.
func shorten(s string, n int) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return excerpt.Cut(strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " — "), n)
}
