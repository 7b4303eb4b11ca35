package extract

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// PDFs are read by PDFium compiled to WebAssembly and run by wazero: pure
// Go, no cgo, and a hostile file can at worst exhaust its own sandbox.
// The time a file takes is bounded outside: a service reads PDFs in worker
// processes (Workers) whose parent kills the one that runs too long. In a
// process of its own the reader has no watchdog: wazero's termination
// checks, which would let a context stop PDFium, cost PDFium four times
// its time.
const (
	// pdfWorkers bounds how many PDFs one Extractor reads at once; a burst
	// of PDFs queues for a place instead of starving everything else.
	pdfWorkers = 2
	// maxPDFPages and maxPDFChars bound the work on one document. A
	// document over either limit is refused whole, never cut short; the
	// page count is checked before any page is read.
	maxPDFPages = 2000
	maxPDFChars = 8 << 20
	// pdfMemoryPages bounds the memory of one PDFium instance (64 KiB
	// pages: 512 MiB), so a stream that inflates to gigabytes fails inside
	// the sandbox.
	pdfMemoryPages = 8192
)

// pdfRuntime returns the extractor's PDFium pool, compiling the module on
// the first PDF (a few seconds; with a cache directory the compiled code is
// kept there, so the next process starts faster).
func (x *Extractor) pdfRuntime() (pdfium.Pool, error) {
	x.pdfOnce.Do(func() {
		if x.preparing != nil {
			defer x.preparing()()
		}
		rc := wazero.NewRuntimeConfig().
			WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
			WithMemoryLimitPages(pdfMemoryPages)
		if x.cache != nil {
			rc = rc.WithCompilationCache(x.cache)
		}
		x.pdf, x.pdfErr = webassembly.Init(webassembly.Config{
			MinIdle:       0,
			MaxIdle:       pdfWorkers,
			MaxTotal:      pdfWorkers,
			RuntimeConfig: rc,
			FSConfig:      wazero.NewFSConfig(), // no file system: PDFium reads only the bytes given
			Stdout:        io.Discard,
			Stderr:        io.Discard,
			// A fresh instance per document: no state carried from one
			// file to the next, and memory a big file grew is given back.
			ReuseWorkers: false,
		})
	})
	return x.pdf, x.pdfErr
}

// readPDF opens raw in a PDFium instance and returns its title and the
// text lines of each page, in the reading order PDFium finds.
func (x *Extractor) readPDF(raw []byte) (title string, pages [][]pdfLine, err error) {
	if err := checkPDFStreams(raw); err != nil {
		return "", nil, err
	}
	pool, err := x.pdfRuntime()
	if err != nil {
		return "", nil, fmt.Errorf("PDF engine: %w", err)
	}
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return "", nil, fmt.Errorf("PDF engine: %w", err)
	}
	defer inst.Close()
	return readPDFWith(inst, raw)
}

func readPDFWith(inst pdfium.Pdfium, raw []byte) (title string, pages [][]pdfLine, err error) {
	mod, err := moduleOf(inst)
	if err != nil {
		return "", nil, fmt.Errorf("PDF engine: %w", err)
	}
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &raw})
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "password") {
			return "", nil, fmt.Errorf("%w: the PDF is encrypted", ErrUnsupported)
		}
		return "", nil, fmt.Errorf("%w: the PDF could not be read", ErrUnsupported)
	}
	defer func() { _, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document}) }()
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return "", nil, pdfFailed(err)
	}
	if count.PageCount > maxPDFPages {
		return "", nil, fmt.Errorf("%w: the PDF has %d pages, more than %d", ErrTooComplex, count.PageCount, maxPDFPages)
	}
	if meta, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc.Document, Tag: "Title"}); err == nil {
		title = strings.TrimSpace(strings.ToValidUTF8(meta.Value, ""))
	}
	chars := 0
	for i := 0; i < count.PageCount; i++ {
		lines, n, err := pageLines(inst, mod, requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}})
		if err != nil {
			return "", nil, pdfFailed(err)
		}
		if chars += n; chars > maxPDFChars {
			return "", nil, fmt.Errorf("%w: the PDF holds more than %d million characters", ErrTooComplex, maxPDFChars/1000000)
		}
		pages = append(pages, lines)
	}
	return title, pages, nil
}

// pageLines returns the text lines of one page and its character count.
// PDFium orders the characters as they are read, spells ligatures out
// through the fonts' ToUnicode maps, infers the spaces between words and
// marks line ends with a generated CR LF; each line gets the baseline,
// left edge, size and weight of its first character.
func pageLines(inst pdfium.Pdfium, mod *pdfModule, page requests.Page) ([]pdfLine, int, error) {
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return nil, 0, err
	}
	defer func() { _, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}) }()
	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return nil, 0, err
	}
	if n.Count > maxPDFChars {
		return nil, 0, fmt.Errorf("%w: a page holds %d characters", ErrTooComplex, n.Count)
	}
	codes, err := pageUnicode(inst, tp.TextPage, n.Count)
	if err != nil {
		return nil, 0, err
	}
	geo, err := mod.page(tp.TextPage)
	if err != nil {
		return nil, 0, err
	}
	defer geo.close()
	pr := pageReader{inst: inst, tp: tp.TextPage, geo: geo, bold: map[uint64]bool{}}
	var segs []pdfSeg
	var line []lineChar
	flush := func() {
		segs = append(segs, pr.lineSegs(line)...)
		line = line[:0]
	}
	for c, r := range codes {
		switch {
		case r == '\n' || r == '\r':
			flush()
			continue
		case r == 0 || r == 0xfffe || r == 2 || !utf8.ValidRune(r): // unmapped, or PDFium's soft-hyphen mark
			continue
		case isSpace(r) || unicode.IsControl(r):
			r = ' '
		}
		line = append(line, lineChar{c, r})
	}
	flush()
	return columnOrder(segs), n.Count, nil
}

// pageUnicode is the code point of each of the page's count characters.
// The page's text comes in one call (FPDFText_GetText) when it holds
// exactly one code point per character, as it does but for pages with
// characters PDFium leaves out of its text (no Unicode) or a leading byte
// order mark; such a page is read a character at a time, as before.
func pageUnicode(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, count int) ([]rune, error) {
	if count == 0 {
		return nil, nil
	}
	if t, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp, StartIndex: 0, Count: count}); err == nil {
		runes := []rune(t.Text)
		if len(runes) == count+1 && runes[count] == 0 {
			runes = runes[:count]
		}
		if len(runes) == count && !slices.Contains(runes, utf8.RuneError) {
			return runes, nil
		}
	}
	codes := make([]rune, count)
	for c := range codes {
		u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: c})
		if err != nil {
			return nil, err
		}
		codes[c] = rune(u.Unicode)
	}
	return codes, nil
}

// lineChar is a character of a line and its index on the page.
type lineChar struct {
	i int
	r rune
}

// pageReader asks one text page where its lines stand and how they are set.
type pageReader struct {
	inst pdfium.Pdfium
	tp   references.FPDF_TEXTPAGE
	geo  *pageGeometry
	bold map[uint64]bool // per font (its address in the module): set in bold
}

// lineSegs cuts a line where PDFium's runs of text leave a gap wider than
// three characters (a gutter between columns, or between table cells) and
// gives each piece its place on the page.
func (r *pageReader) lineSegs(line []lineChar) []pdfSeg {
	for len(line) > 0 && line[0].r == ' ' {
		line = line[1:]
	}
	for len(line) > 0 && line[len(line)-1].r == ' ' {
		line = line[:len(line)-1]
	}
	if len(line) == 0 {
		return nil
	}
	first, last := line[0].i, line[len(line)-1].i
	var cuts []int // line positions where a piece starts
	var rights []float64
	if n := r.geo.countRects(first, last-first+1); n > 1 {
		prev, ok := r.geo.rect(0)
		for k := 1; k < n && ok; k++ {
			rc, ok := r.geo.rect(k)
			if !ok {
				break
			}
			h := prev.top - prev.bottom
			if rc.left-prev.right > 3*h && math.Abs(rc.bottom-prev.bottom) < h/2 {
				at := r.geo.charAt(rc.left+0.5, (rc.top+rc.bottom)/2, 0.5, h/4)
				if p := sort.Search(len(line), func(j int) bool { return line[j].i >= at }); p > 0 && p < len(line) {
					cuts = append(cuts, p)
					rights = append(rights, prev.right)
				}
			}
			prev = rc
		}
	}
	var segs []pdfSeg
	start := 0
	for k := 0; k <= len(cuts); k++ {
		end, x1 := len(line), 0.0
		if k < len(cuts) {
			end, x1 = cuts[k], rights[k]
		}
		if end <= start {
			continue
		}
		piece := line[start:end]
		var sb strings.Builder
		for _, lc := range piece {
			sb.WriteRune(lc.r)
		}
		if text := strings.Join(strings.Fields(sb.String()), " "); text != "" {
			l := r.lineGeometry(piece[0].i, piece[len(piece)/2].i)
			if x1 == 0 {
				x1 = l.x0 + float64(len(piece))*l.size/2
			}
			segs = append(segs, pdfSeg{x0: l.x0, x1: x1, y: l.y, size: l.size, text: text, bold: l.bold})
		}
		start = end
	}
	if len(segs) > 0 {
		segs[0].first = true
		segs[len(segs)-1].last = true
	}
	return segs
}

// lineGeometry is where the line starting at character c stands and how
// it is set, judged by its middle character m (a line opening with a word
// in bold or another size is not a heading). What PDFium cannot tell (a
// font without a weight) stays zero.
func (r *pageReader) lineGeometry(c, m int) pdfLine {
	var l pdfLine
	l.x0, _ = r.geo.charLeft(c)
	l.y, _ = r.geo.baseline(c)
	// The size as set on the page: the height of the character's font
	// box. (FPDFText_GetFontSize is the size before the text matrix
	// scales it, 1 for every line in some producers' files.)
	// A space has no box: then the first character tells.
	for _, i := range []int{m, c} {
		if l.size != 0 {
			break // no second call once a box told the size
		}
		l.size, _ = r.geo.looseHeight(i)
	}
	l.bold = r.boldAt(m)
	return l
}

// boldAt reports character m set in a bold face: a weight of 600 or more,
// or else a bold name. Both belong to the font, so they are asked once per
// font on the page; a character without a font of its own (a space PDFium
// inferred) is asked itself.
func (r *pageReader) boldAt(m int) bool {
	font := r.geo.font(m)
	if bold, ok := r.bold[font]; ok && font != 0 {
		return bold
	}
	bold := false
	if weight, err := r.inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: r.tp, Index: m}); err == nil {
		bold = weight.FontWeight >= 600
	}
	if !bold { // the font's name is asked only when its weight did not tell
		if fi, err := r.inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: r.tp, Index: m}); err == nil {
			bold = boldFont(fi.FontName)
		}
	}
	if font != 0 {
		r.bold[font] = bold
	}
	return bold
}

// pdfFailed is the error of a document PDFium gave up on part way (out of
// memory in its sandbox, a broken object): the whole document fails.
func pdfFailed(err error) error {
	return fmt.Errorf("%w: the PDF could not be read to its end (%v)", ErrTooComplex, err)
}
