// Command eval-extract scores the extractor against the legal-page dev set
// (pairs of a captured page and the text Open Terms Archive extracted from
// it with hand-written selectors), and go-readability on the same pages in
// the same run. Scores are bag-of-words token precision, recall and F1: the
// gold Markdown is stripped to text, both sides are NFKC-normalised and
// lower-cased, and tokens are runs of letters and digits.
//
//	go run ./cmd/eval-extract -data ../shared/data/extract
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"codeberg.org/readeck/go-readability/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/clausewatch/clausewatch/internal/extract"
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
	noRead := fs.Bool("no-readability", false, "skip go-readability")
	variant := fs.String("variant", "", "stress the HTML pages the way real pages break extractors: "+
		"'aria-hidden' (page under an aria-hidden wrapper left by an open consent dialog) or "+
		"'no-landmarks' (main, article, nav, header, footer, aside and their roles turned into plain divs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
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
	var oursTime, readTime time.Duration
	var htmlBytes int64
	fmt.Fprintf(out, "%-4s %-5s | %6s %6s %6s | %6s %6s %6s\n", "id", "fmt", "P", "R", "F1", "rP", "rR", "rF1")
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

		t0 := time.Now()
		doc, err := extract.Extract(raw, "", rec.URL)
		oursTime += time.Since(t0)
		if err != nil {
			res.oursErr = err
		} else {
			res.ours = prf(tokens(doc.Text), gold)
			if *dump != "" {
				_ = os.WriteFile(filepath.Join(*dump, rec.ID+".txt"), []byte(doc.Text), 0o644)
				_ = os.WriteFile(filepath.Join(*dump, rec.ID+".md"), []byte(doc.Markdown), 0o644)
			}
		}
		if rec.Format == "html" {
			htmlBytes += int64(len(raw))
		}
		if !*noRead {
			t0 = time.Now()
			txt, err := readabilityText(raw, rec)
			readTime += time.Since(t0)
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
	summary(out, "ours", results, func(r result) score { return r.ours })
	if !*noRead {
		summary(out, "readability", results, func(r result) score { return r.readb })
	}
	html := results[:0:0]
	for _, r := range results {
		if r.format == "html" {
			html = append(html, r)
		}
	}
	if len(html) > 0 && len(html) < len(results) {
		summary(out, "ours-html", html, func(r result) score { return r.ours })
		if !*noRead {
			summary(out, "readab-html", html, func(r result) score { return r.readb })
		}
		fmt.Fprintln(out, "note: go-readability reads HTML only; its PDF rows use our PDF reader, so compare the -html lines for HTML")
	}
	fmt.Fprintf(out, "time: ours %v, readability %v (all formats; %d HTML bytes)\n", oursTime.Round(time.Millisecond), readTime.Round(time.Millisecond), htmlBytes)
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
	var sum, pdfSum float64
	var n, pdfN, ge90, ge99 int
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
		if r.format == "pdf" {
			pdfSum += s.f
			pdfN++
		}
	}
	sort.Float64s(fs)
	pdfMean := 0.0
	if pdfN > 0 {
		pdfMean = pdfSum / float64(pdfN)
	}
	pdf := ""
	if pdfN > 0 {
		pdf = fmt.Sprintf(" pdfMeanF1=%.4f (pdfs=%d)", pdfMean, pdfN)
	}
	fmt.Fprintf(out, "summary %-11s pages=%d meanF1=%.4f medianF1=%.4f >=0.90=%.1f%% >=0.99=%.1f%%%s\n",
		name, n, sum/float64(n), fs[len(fs)/2], 100*float64(ge90)/float64(n), 100*float64(ge99)/float64(n), pdf)
}

// readabilityText runs go-readability on HTML pages; PDFs go through our
// own PDF reader since readability reads HTML only.
func readabilityText(raw []byte, rec record) (string, error) {
	if rec.Format != "html" {
		doc, err := extract.Extract(raw, "application/pdf", rec.URL)
		if err != nil {
			return "", err
		}
		return doc.Text, nil
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if r.Format == "" {
			r.Format = strings.TrimPrefix(filepath.Ext(r.File), ".")
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
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
