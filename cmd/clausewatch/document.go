package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/rest"
)

// documentService is what the document commands call: no database, a URL
// fetched through the configured SSRF guard, as the server fetches it, and
// analyzer when the command analyzes. The caller closes the service's
// extractor with the function returned.
func documentService(arg string, getenv func(string) string, analyzer *analyze.Engine) (*app.Service, func() error, error) {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return nil, nil, err
	}
	extractor, err := newExtractor(cfg)
	if err != nil {
		return nil, nil, err
	}
	opts := app.Options{Analyzer: analyzer, Extractor: extractor, Logger: newLogger(cfg, io.Discard)}
	if isURL(arg) {
		opts.Fetcher = newFetcher(cfg)
	}
	return app.New(opts), extractor.Close, nil
}

// readDocument reads a FILE (HTML, PDF or text, sniffed; no network), a
// URL (fetched) or - (standard input). pageURL names where a file or
// standard input is from.
func readDocument(ctx context.Context, svc *app.Service, arg, pageURL string, stdin io.Reader) (*app.Document, error) {
	var d *app.Document
	var err error
	if isURL(arg) {
		d, err = svc.ReadDocument(ctx, fetch.Request{URL: arg})
	} else {
		var raw []byte
		if arg == "-" {
			raw, err = io.ReadAll(io.LimitReader(stdin, 10<<20))
		} else {
			raw, err = os.ReadFile(arg)
		}
		if err != nil {
			return nil, err
		}
		d, err = svc.ExtractDocument(fetch.Response{URL: pageURL, FinalURL: pageURL, Body: raw, FetchedAt: time.Now()})
	}
	if err != nil {
		return nil, cliError(err)
	}
	return d, nil
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
	asJSON := fs.Bool("json", false, "print the extraction as JSON, as POST /api/extract answers it")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	src := *file
	if src == "" && fs.NArg() == 1 {
		src = fs.Arg(0)
	}
	if src == "" {
		fmt.Fprintln(stderr, "usage: clausewatch extract [--json|--markdown] --file FILE [--url URL] | clausewatch extract [--json|--markdown] URL")
		return errUsage
	}
	svc, closeService, err := documentService(src, getenv, nil)
	if err != nil {
		return err
	}
	defer closeService()
	d, err := readDocument(ctx, svc, src, *pageURL, stdin)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(stdout, rest.NewExtractionResponse(d.Extraction()))
	}
	out := d.Extracted.Text
	if *markdown {
		out = d.Extracted.Markdown
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
	analyzer, err := newAnalyzer()
	if err != nil {
		return err
	}
	svc, closeService, err := documentService(fs.Arg(0), getenv, analyzer)
	if err != nil {
		return err
	}
	defer closeService()
	d, err := readDocument(ctx, svc, fs.Arg(0), *pageURL, stdin)
	if err != nil {
		return err
	}
	a := svc.AnalyzeText(d.Extracted.Text, d.Source(""))
	if *asJSON {
		return printJSON(stdout, rest.NewAnalysisResponse(a))
	}
	return printAnalysis(stdout, a)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// runClassify reads {"text": ...} lines and writes {"labels": [...]} lines
// in the same order: the benchmarks drive the classifier through it.
func runClassify(stdin io.Reader, stdout io.Writer) error {
	analyzer, err := newAnalyzer()
	if err != nil {
		return err
	}
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
		labels := analyzer.Classify(in.Text)
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
