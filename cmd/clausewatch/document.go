package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/view"
)

// documentService is what the document commands call: no database, a URL
// fetched through the configured SSRF guard, as the server fetches it, and
// analyzer when the command analyzes. The caller closes the service's
// extractor with the function returned.
func documentService(arg string, getenv func(string) string, analyzer *analyze.Engine, stderr io.Writer) (*app.Service, func() error, error) {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return nil, nil, err
	}
	extractor, closeExtractor, err := newExtractor(cfg, func() func() {
		return slow(stderr, "preparing the PDF engine (the first time up to 20 s; then kept in CLAUSEWATCH_PDF_CACHE_DIR)")
	})
	if err != nil {
		return nil, nil, err
	}
	opts := app.Options{Analyzer: analyzer, Extractor: extractor, Logger: newLogger(cfg, io.Discard)}
	if isURL(arg) {
		opts.Fetcher = newFetcher(cfg)
	}
	return app.New(opts), closeExtractor, nil
}

// readDocument reads a FILE (HTML, PDF or text, sniffed; no network), a
// URL (fetched) or - (standard input). pageURL names where a file or
// standard input is from.
func readDocument(ctx context.Context, svc *app.Service, arg, pageURL string, stdin io.Reader, stderr io.Writer) (*app.Document, error) {
	var d *app.Document
	var err error
	if isURL(arg) {
		done := slow(stderr, "fetching "+arg)
		d, err = svc.ReadDocument(ctx, fetch.Request{URL: arg})
		done()
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
		done := slow(stderr, "reading "+arg)
		d, err = svc.ExtractDocument(fetch.Response{URL: pageURL, FinalURL: pageURL, Body: raw, FetchedAt: time.Now()})
		done()
	}
	if err != nil {
		return nil, allowListHint(cliError(err), err, arg)
	}
	return d, nil
}

// allowListHint adds to a refusal of where a URL points (its port, an
// address that is not public) how to fetch it anyway: the usual case is a
// server of one's own on loopback, and the allow list is the way.
func allowListHint(msg, err error, arg string) error {
	var fe *fetch.Error
	u, perr := url.Parse(arg)
	if !errors.As(err, &fe) || fe.Kind != fetch.KindInvalid || perr != nil || u.User != nil || u.Hostname() == "" {
		return msg
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return fmt.Errorf("%w\n  to fetch it anyway (a server of your own), set CLAUSEWATCH_FETCH_ALLOW_HOSTS=%s",
		msg, net.JoinHostPort(u.Hostname(), port))
}

func isURL(arg string) bool {
	return strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://")
}

func extractFlags(fs *flag.FlagSet) {
	fs.String("file", "", "HTML, PDF or text file to extract (no network)")
	fs.String("url", "", "the page's URL, for resolving links")
	fs.Bool("markdown", false, "print Markdown instead of plain text")
	fs.Bool("json", false, "print the extraction as JSON, as POST /api/extract answers it")
}

func analyzeFlags(fs *flag.FlagSet) {
	fs.Bool("json", false, "print the analysis as JSON, as POST /api/analyze answers it")
	fs.String("url", "", "the document's URL, for resolving links")
}

func runExtract(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, err := parseFlags("extract", args, stderr)
	if err != nil {
		return err
	}
	pageURL, markdown, asJSON := ptr(flagString(fs, "url")), flagBool(fs, "markdown"), flagBool(fs, "json")
	src := flagString(fs, "file")
	if src == "" && fs.NArg() == 1 {
		src = fs.Arg(0)
	}
	if src == "" || fs.NArg() > 1 || (src == flagString(fs, "file") && fs.NArg() > 0) {
		return usageError(stderr, "extract", "extract needs one FILE (--file) or URL")
	}
	svc, closeService, err := documentService(src, getenv, nil, stderr)
	if err != nil {
		return err
	}
	defer closeService()
	d, err := readDocument(ctx, svc, src, *pageURL, stdin, stderr)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(stdout, view.NewExtraction(d.Extraction()))
	}
	out := d.Extracted.Text
	if markdown {
		out = d.Extracted.Markdown
	}
	_, err = fmt.Fprintln(stdout, strings.TrimRight(out, "\n"))
	return err
}

func runAnalyze(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, err := parseFlags("analyze", args, stderr)
	if err != nil {
		return err
	}
	asJSON, pageURL := flagBool(fs, "json"), ptr(flagString(fs, "url"))
	if fs.NArg() != 1 {
		return usageError(stderr, "analyze", "analyze needs one FILE, URL or -")
	}
	stopModels := slow(stderr, "loading the analysis models")
	analyzer, err := newAnalyzer()
	stopModels()
	if err != nil {
		return err
	}
	svc, closeService, err := documentService(fs.Arg(0), getenv, analyzer, stderr)
	if err != nil {
		return err
	}
	defer closeService()
	d, err := readDocument(ctx, svc, fs.Arg(0), *pageURL, stdin, stderr)
	if err != nil {
		return err
	}
	stopAnalysis := slow(stderr, "analyzing")
	a, err := svc.AnalyzeText(d.Extracted.Text, d.Source(""))
	stopAnalysis()
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(stdout, view.NewAnalysis(a))
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

// slow prints "clausewatch: what..." to w once the work has taken a second,
// then a line every 5 s with the time taken, until the returned stop is
// called: nothing over a second happens in silence.
func slow(w io.Writer, what string) (stop func()) {
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTimer(time.Second)
		defer t.Stop()
		first := true
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if first {
				fmt.Fprintf(w, "clausewatch: %s...\n", what)
				first = false
			} else {
				fmt.Fprintf(w, "clausewatch: still %s (%ds)\n", what, int(time.Since(start).Seconds()))
			}
			t.Reset(5 * time.Second)
		}
	}()
	return func() { close(done); <-finished }
}
