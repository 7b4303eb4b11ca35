// Command eval-extract scores the extractor against the legal-page dev set
// (pairs of a captured page and the text Open Terms Archive extracted from
// it with hand-written selectors), with go-readability on the same HTML
// pages and poppler's pdftotext on the same PDFs in the same run (pdftotext
// only as a yardstick: it is never used at run time). Scores are bag-of-words token precision, recall and F1: the
// gold Markdown is stripped to text, both sides are NFKC-normalised and
// lower-cased, and tokens are runs of letters and digits.
//
//	go run ./cmd/eval-extract -data ../shared/data/extract
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"

	"codeberg.org/readeck/go-readability/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/clausewatch/clausewatch/internal/extract"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

type record struct {
	ID     string `json:"id"`
	File   string `json:"file"`
	Gold   string `json:"gold"`
	URL    string `json:"url"`
	Format string `json:"format"`
}

type score struct{ p, r, f float64 }

type result struct {
	id, format  string
	ours, readb score
	oursErr     error
	readErr     error
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "eval-extract:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("eval-extract", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/extract", "directory holding index.jsonl and the page/gold pairs")
	only := fs.String("only", "", "score only this page id")
	dump := fs.String("dump", "", "write our extracted text per page into this directory")
	noRead := fs.Bool("no-readability", false, "skip go-readability and pdftotext")
	variant := fs.String("variant", "", "stress the HTML pages the way real pages break extractors: "+
		"'aria-hidden' (page under an aria-hidden wrapper left by an open consent dialog) or "+
		"'no-landmarks' (main, article, nav, header, footer, aside and their roles turned into plain divs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// The compiled PDF reader is cached where serve keeps it by default,
	// so the first PDF's time is not the compilation's.
	var dir string
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "clausewatch", "wazero")
	}
	x, err := extract.New(extract.Options{CacheDir: dir})
	if err != nil {
		return err
	}
	defer x.Close()
	recs, err := readIndex(filepath.Join(*data, "index.jsonl"))
	if err != nil {
		return err
	}
	if *dump != "" {
		if err := os.MkdirAll(*dump, 0o755); err != nil {
			return err
		}
	}
	var results []result
	times := map[string]*formatTime{"html": {}, "pdf": {}}
	pdftotext, lookErr := exec.LookPath("pdftotext")
	if lookErr != nil && !*noRead {
		fmt.Fprintln(out, "pdftotext not installed (apt-get install poppler-utils): no PDF yardstick")
	}
	fmt.Fprintf(out, "%-4s %-5s | %6s %6s %6s | %6s %6s %6s  (peer: go-readability for HTML, pdftotext for PDF)\n", "id", "fmt", "P", "R", "F1", "pP", "pR", "pF1")
	for _, rec := range recs {
		if *only != "" && rec.ID != *only {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(*data, rec.File))
		if err != nil {
			return err
		}
		if rec.Format == "html" {
			if raw, err = applyVariant(*variant, raw); err != nil {
				return err
			}
		}
		goldMD, err := os.ReadFile(filepath.Join(*data, rec.Gold))
		if err != nil {
			return err
		}
		gold := tokens(StripMarkdown(string(goldMD)))
		res := result{id: rec.ID, format: rec.Format}

		ft := times[rec.Format]
		if ft == nil {
			ft = &formatTime{}
			times[rec.Format] = ft
		}
		ft.bytes += int64(len(raw))
		t0, c0 := time.Now(), cpuTime(syscall.RUSAGE_SELF)
		doc, err := x.Extract(raw, "", rec.URL)
		ft.ours += time.Since(t0)
		ft.oursCPU += cpuTime(syscall.RUSAGE_SELF) - c0
		if err != nil {
			res.oursErr = err
		} else {
			res.ours = prf(tokens(doc.Text), gold)
			if *dump != "" {
				_ = os.WriteFile(filepath.Join(*dump, rec.ID+".txt"), []byte(doc.Text), 0o644)
				_ = os.WriteFile(filepath.Join(*dump, rec.ID+".md"), []byte(doc.Markdown), 0o644)
			}
		}
		if !*noRead && (rec.Format == "html" || lookErr == nil) {
			t0, c0 = time.Now(), cpuTime(syscall.RUSAGE_CHILDREN)
			txt, err := peerText(raw, rec, pdftotext, filepath.Join(*data, rec.File))
			ft.peer += time.Since(t0)
			ft.peerCPU += cpuTime(syscall.RUSAGE_CHILDREN) - c0
			if err != nil {
				res.readErr = err
			} else {
				res.readb = prf(tokens(txt), gold)
			}
		}
		results = append(results, res)
		fmt.Fprintf(out, "%-4s %-5s | %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f%s\n", res.id, res.format,
			res.ours.p, res.ours.r, res.ours.f, res.readb.p, res.readb.r, res.readb.f, errNote(res))
	}
	if len(results) == 0 {
		return errors.New("no pages scored")
	}
	for _, f := range []struct{ format, peer string }{{"html", "readability"}, {"pdf", "pdftotext"}} {
		var rs []result
		for _, r := range results {
			if r.format == f.format {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		summary(out, "ours-"+f.format, rs, func(r result) score { return r.ours })
		if !*noRead && (f.format == "html" || lookErr == nil) {
			summary(out, f.peer, rs, func(r result) score { return r.readb })
		}
		ft := times[f.format]
		fmt.Fprintf(out, "time %-4s ours %v (%.2f MB/s)", f.format, ft.ours.Round(time.Millisecond), mbps(ft.bytes, ft.ours))
		if ft.peer > 0 {
			fmt.Fprintf(out, ", %s %v (%.2f MB/s)", f.peer, ft.peer.Round(time.Millisecond), mbps(ft.bytes, ft.peer))
		}
		fmt.Fprintf(out, " over %d bytes\n", ft.bytes)
		if ft.peerCPU > 0 && f.format == "pdf" { // go-readability runs in our process: no CPU time of its own
			fmt.Fprintf(out, "cpu  %-4s ours %v, %s %v (ratio %.1f)\n", f.format, ft.oursCPU.Round(time.Millisecond), f.peer, ft.peerCPU.Round(time.Millisecond), ft.oursCPU.Seconds()/ft.peerCPU.Seconds())
		}
	}
	return nil
}

var (
	bodyOpen    = regexp.MustCompile(`(?i)<body[^>]*>`)
	landmarkTag = regexp.MustCompile(`(?i)<(/?)(main|article|nav|header|footer|aside)\b`)
	landmarkRol = regexp.MustCompile(`(?i)\srole="(main|navigation|banner|contentinfo|complementary|article)"`)
)

const consentDialog = `<div role="dialog" aria-modal="true" class="pm-x1"><h2>We value your privacy</h2>` +
	`<p>We and our 842 partners store and access information on your device, such as unique identifiers, ` +
	`to personalise advertising and content, measure performance and develop products. You can accept or ` +
	`manage your choices.</p><button>Accept all</button><button>Manage options</button></div>`

// applyVariant rewrites a page to test robustness (see the -variant flag).
func applyVariant(v string, raw []byte) ([]byte, error) {
	switch v {
	case "":
		return raw, nil
	case "aria-hidden":
		loc := bodyOpen.FindIndex(raw)
		if loc == nil {
			return raw, nil
		}
		end := bytes.LastIndex(bytes.ToLower(raw), []byte("</body>"))
		if end < loc[1] {
			end = len(raw)
		}
		var b bytes.Buffer
		b.Write(raw[:loc[1]])
		b.WriteString(`<div id="root" aria-hidden="true">`)
		b.Write(raw[loc[1]:end])
		b.WriteString(`</div>` + consentDialog)
		b.Write(raw[end:])
		return b.Bytes(), nil
	case "no-landmarks":
		out := landmarkTag.ReplaceAll(raw, []byte("<${1}div"))
		return landmarkRol.ReplaceAll(out, nil), nil
	}
	return nil, fmt.Errorf("unknown -variant %q", v)
}

// formatTime is the time spent on one format's pages, ours and the peer's:
// wall time, and CPU time where the peer is a process of its own
// (pdftotext), which is the figure to compare on a loaded machine.
type formatTime struct {
	ours, peer       time.Duration
	oursCPU, peerCPU time.Duration
	bytes            int64
}

// cpuTime is the user and system time of who (this process, or its
// finished children).
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mbps(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / 1e6 / d.Seconds()
}

func errNote(r result) string {
	s := ""
	if r.oursErr != nil {
		s += "  ours error: " + r.oursErr.Error()
	}
	if r.readErr != nil {
		s += "  readability error: " + r.readErr.Error()
	}
	return s
}

func summary(out io.Writer, name string, results []result, get func(result) score) {
	var sum float64
	var n, ge90, ge99 int
	var fs []float64
	for _, r := range results {
		s := get(r)
		sum += s.f
		n++
		fs = append(fs, s.f)
		if s.f >= 0.90 {
			ge90++
		}
		if s.f >= 0.99 {
			ge99++
		}
	}
	sort.Float64s(fs)
	fmt.Fprintf(out, "summary %-11s pages=%d meanF1=%.4f medianF1=%.4f minF1=%.4f >=0.90=%.1f%% >=0.99=%.1f%%\n",
		name, n, sum/float64(n), fs[len(fs)/2], fs[0], 100*float64(ge90)/float64(n), 100*float64(ge99)/float64(n))
}

// peerText is the text of the peer extractor: go-readability for HTML,
// pdftotext (default options, as in the data set's README) for PDF.
func peerText(raw []byte, rec record, pdftotext, file string) (string, error) {
	if rec.Format == "pdf" {
		txt, err := exec.Command(pdftotext, "-enc", "UTF-8", file, "-").Output()
		return string(txt), err
	}
	u, _ := url.Parse(rec.URL)
	art, err := readability.FromReader(bytes.NewReader(raw), u)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	if err := art.RenderText(&sb); err != nil {
		return "", err
	}
	return sb.String(), nil
}

func readIndex(path string) ([]record, error) {
	var recs []record
	err := corpus.EachLine(path, func(line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if r.Format == "" {
			r.Format = strings.TrimPrefix(filepath.Ext(r.File), ".")
		}
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

var (
	mdImage     = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)`)
	mdRefDef    = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s*\S+.*$`)
	mdAutolink  = regexp.MustCompile(`<(https?://[^>]+)>`)
	mdHTMLTag   = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
	mdEscape    = regexp.MustCompile(`\\([\\` + "`" + `*_{}\[\]()#+\-.!|>~<])`)
	mdHeadRule  = regexp.MustCompile(`(?m)^\s*(=+|-+|\*{3,}|_{3,})\s*$`)
	mdTableRule = regexp.MustCompile(`(?m)^\s*\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*$`)
	mdListMark  = regexp.MustCompile(`(?m)^\s*(?:[-*+]|\d+[.)])\s+`)
	mdHeading   = regexp.MustCompile(`(?m)^\s*#{1,6}\s+`)
	mdQuote     = regexp.MustCompile(`(?m)^\s*>\s?`)
	mdEmph      = regexp.MustCompile("(\\*\\*|__|\\*|_|`+|~~)")
)

// StripMarkdown turns Markdown into the plain text a reader sees: link and
// image targets, emphasis, heading and list markers and table rules go;
// their text stays.
func StripMarkdown(md string) string {
	s := mdImage.ReplaceAllString(md, "$1")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdRefDef.ReplaceAllString(s, "")
	s = mdAutolink.ReplaceAllString(s, "$1")
	s = mdHTMLTag.ReplaceAllString(s, " ")
	s = mdHeadRule.ReplaceAllString(s, "")
	s = mdTableRule.ReplaceAllString(s, "")
	s = mdListMark.ReplaceAllString(s, "")
	s = mdHeading.ReplaceAllString(s, "")
	s = mdQuote.ReplaceAllString(s, "")
	s = mdEscape.ReplaceAllString(s, "$1")
	s = mdEmph.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, "|", " ")
}

// tokens counts runs of letters and digits in the NFKC-normalised,
// lower-cased text.
func tokens(s string) map[string]int {
	s = strings.ToLower(norm.NFKC.String(s))
	m := map[string]int{}
	start := -1
	for i, r := range s + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			m[s[start:i]]++
			start = -1
		}
	}
	return m
}

func prf(got, want map[string]int) score {
	var ng, nw, common int
	for _, c := range got {
		ng += c
	}
	for t, c := range want {
		nw += c
		common += min(c, got[t])
	}
	if ng == 0 || nw == 0 || common == 0 {
		return score{}
	}
	p := float64(common) / float64(ng)
	r := float64(common) / float64(nw)
	return score{p, r, 2 * p * r / (p + r)}
}
