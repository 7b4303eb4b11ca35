package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/rest"
)

// readDocument extracts a FILE (HTML, PDF or text, sniffed; no network), a
// URL (fetched through the SSRF guard) or - (standard input).
func readDocument(ctx context.Context, arg, pageURL string, getenv func(string) string, stdin io.Reader) (*extract.Document, error) {
	var raw []byte
	contentType := ""
	switch {
	case arg == "-":
		b, err := io.ReadAll(io.LimitReader(stdin, 10<<20))
		if err != nil {
			return nil, err
		}
		raw = b
	case isURL(arg):
		cfg, err := loadConfig(getenv)
		if err != nil {
			return nil, err
		}
		res, err := newFetcher(cfg).Fetch(ctx, fetch.Request{URL: arg})
		if err != nil {
			var fe *fetch.Error
			if errors.As(err, &fe) {
				return nil, errors.New(fe.Msg)
			}
			return nil, err
		}
		raw, contentType, pageURL = res.Body, res.ContentType, res.FinalURL
	default:
		b, err := os.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	return extract.Extract(raw, contentType, pageURL)
}

func isURL(arg string) bool {
	return strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://")
}

func runExtract(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "HTML, PDF or text file to extract (no network)")
	pageURL := fs.String("url", "", "the page's URL, for resolving links")
	markdown := fs.Bool("markdown", false, "print Markdown instead of plain text")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	src := *file
	if src == "" && fs.NArg() == 1 {
		src = fs.Arg(0)
	}
	if src == "" {
		fmt.Fprintln(stderr, "usage: clausewatch extract --file FILE [--url URL] [--markdown] | clausewatch extract URL")
		return errUsage
	}
	doc, err := readDocument(ctx, src, *pageURL, getenv, stdin)
	if err != nil {
		return err
	}
	out := doc.Text
	if *markdown {
		out = doc.Markdown
	}
	_, err = fmt.Fprintln(stdout, strings.TrimRight(out, "\n"))
	return err
}

func runAnalyze(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	pageURL := fs.String("url", "", "the document's URL, for resolving links")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: clausewatch analyze [--json] [--url URL] FILE|URL|-")
		return errUsage
	}
	doc, err := readDocument(ctx, fs.Arg(0), *pageURL, getenv, stdin)
	if err != nil {
		return err
	}
	srcURL := *pageURL
	if isURL(fs.Arg(0)) {
		srcURL = fs.Arg(0)
	}
	now := time.Now()
	x := app.NewExtraction(srcURL, srcURL, doc, now)
	a := app.BuildAnalysis(x.Text, x.Source(""), now)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rest.NewAnalysisResponse(a))
	}
	return printAnalysis(stdout, a)
}

// printAnalysis is the terminal view: grade first, then each finding with
// its quote, why it matters and what to check.
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
	fmt.Fprintf(bw, "Grade %s  (score %d/100)\n\n", a.Grade, a.Score)
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
	s = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " — ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// runClassify reads {"text": ...} lines and writes {"labels": [...]} lines
// in the same order: the benchmarks drive the classifier through it.
func runClassify(stdin io.Reader, stdout io.Writer) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	bw := bufio.NewWriter(stdout)
	enc := json.NewEncoder(bw)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var in struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return fmt.Errorf("line %d: not a JSON object with a text field: %w", line, err)
		}
		labels := analyze.Classify(in.Text)
		if labels == nil {
			labels = []string{}
		}
		if err := enc.Encode(map[string][]string{"labels": labels}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return bw.Flush()
}
