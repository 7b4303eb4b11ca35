// Package extract turns the raw bytes of a legal web page, PDF or text file
// into readable plain text and Markdown. An Extractor does it: it owns the
// PDF reader (PDFium in WebAssembly on wazero, compiled on its first PDF,
// optionally cached on disk) and is closed when done. HTML and text are
// read by pure functions of the bytes; the helpers exported beside it
// (Describe, Sniff, ContentHash, NormalizeForHash, ...) are pure.
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium"
	"github.com/tetratelabs/wazero"
)

// Document is what extraction yields from one page.
type Document struct {
	Description
	Text     string // paragraphs separated by blank lines
	Markdown string
}

// Description is what is reported of a text besides the text itself.
type Description struct {
	Title        string
	DocumentType string // terms, privacy or other
	Language     string // ISO 639-1, e.g. "en"; "" when unknown
	WordCount    int
	ContentHash  string // hash of the normalised text, stable across noise
}

// Describe describes a text under a title: an extracted page's, or a text
// pasted as it is.
func Describe(title, text string) Description {
	return Description{
		Title:        title,
		DocumentType: DetectType(title, text),
		Language:     DetectLanguage(text),
		WordCount:    WordCount(text),
		ContentHash:  ContentHash(text),
	}
}

var (
	// ErrNoText: the input is a readable format but holds no text (e.g. an image-only PDF).
	ErrNoText = errors.New("no extractable text")
	// ErrUnsupported: the input is not a document we can read (an image, a binary).
	ErrUnsupported = errors.New("not a document we can read")
	// ErrTooComplex: a document over the bounds of the work we spend on
	// one (pages, text, memory, time); it is refused whole, never cut short.
	ErrTooComplex = errors.New("document too complex to read")
)

// Format is the kind of input Extract recognised.
type Format int

const (
	FormatUnknown Format = iota
	FormatHTML
	FormatPDF
	FormatText
)

// Options configure an Extractor.
type Options struct {
	// CacheDir keeps the PDF reader's compiled code between processes
	// (created if missing); empty: compiled anew by each process, nothing
	// written to disk.
	CacheDir string
	// Preparing, when set, is called once, as the PDF reader starts to be
	// made for the first PDF (seconds on a cold cache), and the function it
	// returns once it is made, so a command line can say what it waits for.
	Preparing func() (done func())
	// HTMLWorkers is how many HTML pages are read at once (the others wait
	// their turn); 0 means DefaultHTMLWorkers.
	HTMLWorkers int
	// Workers, when set, read the PDFs in worker processes under a
	// watchdog; nil: in this process, bounded in pages, text and memory but
	// not in time (for trusted files, and for the worker itself).
	Workers *Workers
}

// DefaultHTMLWorkers bounds the HTML pages read at once. Within the node
// budget the costliest page peaks near 65 MB of resident memory while it
// is read (its bytes, their stripped copy, the tree, the text), so four at
// once stay under 300 MB whatever is asked; reading is processor work, and
// more at once than the processors would only add memory.
const DefaultHTMLWorkers = 4

// MaxHTMLBytes is the largest HTML page read, refused before parsing: the
// fetcher's own limit, so a page read from a file or the store is bounded
// as a fetched one is.
const MaxHTMLBytes = 10 << 20

// Extractor reads documents. It is safe for concurrent use: at most
// pdfWorkers PDFs (with Workers, their Size) and HTMLWorkers HTML pages
// are read at once, the others wait their turn.
type Extractor struct {
	cache     wazero.CompilationCache // nil without a cache directory
	preparing func() (done func())
	html      chan struct{} // a place per HTML page being read
	workers   *Workers      // nil: PDFs are read in this process

	pdfOnce sync.Once
	pdf     pdfium.Pool
	pdfErr  error
}

// New prepares an Extractor; an unusable cache directory is an error now
// rather than on the first PDF.
func New(o Options) (*Extractor, error) {
	n := o.HTMLWorkers
	if n <= 0 {
		n = DefaultHTMLWorkers
	}
	x := &Extractor{preparing: o.Preparing, html: make(chan struct{}, n), workers: o.Workers}
	if o.CacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(o.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("extract: PDF cache directory: %w", err)
		}
		x.cache = cache
	}
	return x, nil
}

// Close releases the PDF reader and its cache, after the last Extract.
func (x *Extractor) Close() error {
	var err error
	x.pdfOnce.Do(func() { x.pdfErr = errClosed }) // no reader starts after Close
	if x.pdf != nil {
		err = x.pdf.Close()
	}
	if x.cache != nil {
		err = errors.Join(err, x.cache.Close(context.Background()))
	}
	return err
}

var errClosed = errors.New("extract: the extractor is closed")

// Version names the rules the extractor reads by (see the constant).
func (x *Extractor) Version() string { return Version }

// Extract reads raw bytes. contentType is the HTTP Content-Type header, if
// any (the type and charset are sniffed when it is empty or wrong); pageURL
// resolves relative links and may be empty.
func (x *Extractor) Extract(raw []byte, contentType, pageURL string) (doc *Document, err error) {
	defer func() {
		if p := recover(); p != nil { // a malformed PDF can upset the parser
			doc, err = nil, fmt.Errorf("%w: the document could not be parsed", ErrUnsupported)
		}
	}()
	var title, text, md, declaredLang string
	switch Sniff(raw, contentType) {
	case FormatPDF:
		text, md, title, err = x.readPDFText(raw)
		if err != nil {
			return nil, err
		}
	case FormatHTML:
		title, text, md, declaredLang, err = x.extractHTML(raw, contentType, pageURL)
		if err != nil {
			return nil, err
		}
	case FormatText:
		text = normalizePlain(string(toUTF8(raw, contentType, false)))
		md = text
	default:
		return nil, ErrUnsupported
	}
	if strings.TrimSpace(text) == "" {
		return nil, ErrNoText
	}
	if title == "" {
		title = firstLine(text)
	}
	d := Describe(title, text)
	if d.Language == "" {
		d.Language = declaredLang // <html lang>, when the text is too short to tell
	}
	return &Document{Description: d, Text: text, Markdown: md}, nil
}

// Sniff decides how to read raw, trusting its bytes over the declared
// content type when they disagree.
func Sniff(raw []byte, contentType string) Format {
	ct, _, _ := mime.ParseMediaType(contentType)
	ct = strings.ToLower(ct)
	head := raw
	if len(head) > 1024 {
		head = head[:1024]
	}
	trimmed := bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if bytes.HasPrefix(trimmed, []byte("%PDF-")) || bytes.Contains(head, []byte("%PDF-")) && ct == "application/pdf" {
		return FormatPDF
	}
	sniffed := http.DetectContentType(raw)
	switch {
	case strings.HasPrefix(sniffed, "image/"), strings.HasPrefix(sniffed, "audio/"),
		strings.HasPrefix(sniffed, "video/"), strings.HasPrefix(sniffed, "font/"),
		sniffed == "application/zip", sniffed == "application/x-gzip",
		sniffed == "application/wasm", sniffed == "application/x-rar-compressed",
		sniffed == "application/vnd.ms-fontobject":
		return FormatUnknown
	case strings.HasPrefix(sniffed, "text/html"), strings.HasPrefix(sniffed, "text/xml"):
		return FormatHTML
	}
	switch {
	case strings.HasPrefix(ct, "image/"), strings.HasPrefix(ct, "audio/"), strings.HasPrefix(ct, "video/"):
		return FormatUnknown
	case strings.Contains(ct, "html"), strings.Contains(ct, "xml"):
		return FormatHTML
	}
	if looksLikeHTML(trimmed) {
		return FormatHTML
	}
	if sniffed == "application/octet-stream" && !mostlyText(head) {
		return FormatUnknown
	}
	return FormatText
}

func looksLikeHTML(b []byte) bool {
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	low := bytes.ToLower(b)
	for _, p := range []string{"<!doctype", "<html", "<head", "<body", "<div", "<p>", "<p ", "<h1", "<h2", "<main", "<article", "<section", "<!--", "<?xml", "<meta", "<table", "<ul", "<span"} {
		if bytes.HasPrefix(low, []byte(p)) {
			return true
		}
	}
	return false
}

// mostlyText reports whether b has no control bytes a text file would not hold.
func mostlyText(b []byte) bool {
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b {
			bad++
		}
	}
	return bad*100 <= len(b)
}

// extractHTML reads an HTML page in one of the extractor's places, after
// refusing one over MaxHTMLBytes.
func (x *Extractor) extractHTML(raw []byte, contentType, pageURL string) (title, text, md, lang string, err error) {
	if len(raw) > MaxHTMLBytes {
		return "", "", "", "", fmt.Errorf("%w: the page is %.1f MiB of HTML, over the limit of %d MiB", ErrTooComplex, float64(len(raw))/(1<<20), MaxHTMLBytes>>20)
	}
	x.html <- struct{}{}
	defer func() { <-x.html }()
	return extractHTML(toUTF8(raw, contentType, true), pageURL)
}

func extractHTML(src []byte, pageURL string) (title, text, md, lang string, err error) {
	t, err := parseTree(stripRaw(src))
	if err != nil {
		return "", "", "", "", err
	}
	sel := t.selectContent()
	r := render(sel, pageURL)
	text, md = joinBlocks(r.blocks)
	if strings.TrimSpace(text) == "" && len(t.noscript) > 0 {
		// A script-rendered page may carry its text for non-script readers.
		// ("Please enable JavaScript" alone is not a document.)
		nt, err := parseTree(stripRaw(t.noscript))
		if err != nil {
			return "", "", "", "", err
		}
		nr := render(nt.selectContent(), pageURL)
		if ntext, nmd := joinBlocks(nr.blocks); WordCount(ntext) >= 25 {
			r, text, md = nr, ntext, nmd
		}
	}
	title = t.title
	// Prefer the page's main heading when the <title> is only the site's
	// name or slogan and the heading names the document.
	if title == "" || r.firstH1 != "" && len(r.firstH1) <= 200 && !namesDocument(title) && namesDocument(r.firstH1) {
		title = r.firstH1
	}
	lang, _, _ = strings.Cut(t.lang, "-")
	lang, _, _ = strings.Cut(lang, "_")
	if len(lang) != 2 {
		lang = ""
	}
	return title, text, md, lang, nil
}

// normalizePlain tidies plain text: LF line ends, trimmed lines, at most
// one blank line between paragraphs.
func normalizePlain(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimPrefix(s, "\ufeff")
	lines := strings.Split(s, "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, isSpace)
		if strings.TrimFunc(l, isSpace) == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func firstLine(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	line = strings.TrimSpace(strings.TrimPrefix(line, "- "))
	if utf8.RuneCountInString(line) > 120 {
		r := []rune(line)
		line = strings.TrimSpace(string(r[:120])) + "…"
	}
	return line
}

// WordCount counts words: runs of letters and digits.
func WordCount(text string) int {
	n, in := 0, false
	for _, r := range text {
		w := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}
