package extract

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// maxPDFPages and maxPDFChars bound the work on one PDF: pages after the
// limits are not read.
const (
	maxPDFPages = 2000
	maxPDFChars = 8 << 20
	// pdfTimeBudget bounds the reading of one PDF. The PDF library has
	// loops that a hostile file can make endless (a /Prev or /Parent
	// chain pointing back on itself); it re-reads the file as it goes, so
	// a reader that fails once the budget is spent ends them.
	pdfTimeBudget = 20 * time.Second
)

// pdfReadBudget is how many bytes the PDF library may read from a file of
// n bytes: it re-reads objects, so a generous multiple.
func pdfReadBudget(n int) int64 { return int64(n)*1000 + 16<<20 }

var errPDFBudget = errors.New("PDF reading budget spent")

// budgetReader is the file as the PDF library sees it; it fails every read
// once the time or byte budget is spent.
type budgetReader struct {
	r        *bytes.Reader
	deadline time.Time
	budget   int64
	n        int64
	over     bool
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	b.n += int64(len(p))
	if b.over || b.n > b.budget || time.Now().After(b.deadline) {
		b.over = true
		return 0, errPDFBudget
	}
	return b.r.ReadAt(p, off)
}

func (b *budgetReader) spent() bool { return b.over }

// pageList walks the page tree in order, with its own bounds: the
// library's Page(n) restarts from the root for every page and loops
// forever on a tree whose Kids point back at an ancestor.
func pageList(r *pdf.Reader) (pages []pdf.Page) {
	defer func() { _ = recover() }() // a broken tree keeps the pages found so far
	type item struct {
		v     pdf.Value
		depth int
	}
	stack := []item{{r.Trailer().Key("Root").Key("Pages"), 0}}
	visited := 0
	for len(stack) > 0 && len(pages) < maxPDFPages && visited < 4*maxPDFPages {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		switch it.v.Key("Type").Name() {
		case "Page":
			if parentChainOK(it.v) {
				pages = append(pages, pdf.Page{V: it.v})
			}
		case "Pages":
			if it.depth >= 32 {
				continue
			}
			kids := it.v.Key("Kids")
			for i := kids.Len() - 1; i >= 0; i-- { // reversed: the stack pops the first kid first
				stack = append(stack, item{kids.Index(i), it.depth + 1})
			}
		}
	}
	return pages
}

// parentChainOK reports a /Parent chain that ends: the library follows it
// to inherit resources and would loop forever on a cycle.
func parentChainOK(v pdf.Value) bool {
	for k := 0; k < 40; k++ {
		v = v.Key("Parent")
		if v.IsNull() {
			return true
		}
	}
	return false
}

type glyph struct {
	x, y, w, size float64
	s             string
	bold          bool
}

type pdfLine struct {
	y, size, x0 float64
	text        string
	bold        bool
}

// headingLine reports a short bold line not ending a sentence: a heading.
func headingLine(l pdfLine) bool {
	return l.bold && len(l.text) <= 100 && !strings.HasSuffix(l.text, ".") && !strings.HasSuffix(l.text, ",")
}

// boldFont reports a bold face from its PostScript name.
func boldFont(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "bold") || strings.Contains(n, "black") || strings.Contains(n, "heavy")
}

// ligatures spells out the typographic ligatures a PDF font maps its glyphs
// to ("deﬁned"), so words read, search and match as the letters they are.
var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st")

// extractPDF reads the text of each page in reading order: glyphs grouped
// into lines by baseline, lines top to bottom, words split where the gap
// between glyphs is wider than a fraction of the font size, paragraphs
// split where the gap between lines is wider than the usual leading.
func extractPDF(raw []byte) (text, md, title string, err error) {
	br := &budgetReader{r: bytes.NewReader(raw), deadline: time.Now().Add(pdfTimeBudget), budget: pdfReadBudget(len(raw))}
	r, err := pdf.NewReader(br, int64(len(raw)))
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "encrypt") {
			return "", "", "", fmt.Errorf("%w: the PDF is encrypted", ErrUnsupported)
		}
		return "", "", "", fmt.Errorf("%w: the PDF could not be read", ErrUnsupported)
	}
	title = pdfTitle(r)
	var paras []string
	var sizes []float64 // largest font size of each paragraph
	var bolds []bool    // paragraph set in bold
	var cur []string
	curSize, curBold := 0.0, false
	sizeChars := map[int]int{} // characters set in each (rounded) font size
	flushPara := func() {
		if len(cur) > 0 {
			paras = append(paras, ligatures.Replace(joinPDFLines(cur)))
			sizes = append(sizes, curSize)
			bolds = append(bolds, curBold)
			cur, curSize = cur[:0], 0
		}
	}
	pages := pageList(r)
	chars := 0
	for _, pg := range pages {
		if chars >= maxPDFChars || br.spent() {
			break
		}
		lines := pageLines(pg)
		for _, l := range lines {
			chars += len(l.text)
		}
		gap := typicalLeading(lines)
		for k, l := range lines {
			if k > 0 {
				d := lines[k-1].y - l.y
				if d > gap*1.45 || d < 0 || startsItem(l.text) || math.Abs(l.size-lines[k-1].size) > 1.5 || l.bold != lines[k-1].bold && (headingLine(l) || headingLine(lines[k-1])) {
					flushPara()
				}
			}
			cur = append(cur, l.text)
			curSize = math.Max(curSize, l.size)
			curBold = l.bold
			sizeChars[int(math.Round(l.size))] += len(l.text)
		}
		// a paragraph may continue on the next page; a page ending in a
		// full stop usually ends one
		if len(cur) > 0 {
			last := cur[len(cur)-1]
			if strings.HasSuffix(last, ".") || strings.HasSuffix(last, ":") {
				flushPara()
			}
		}
	}
	flushPara()
	text = strings.Join(paras, "\n\n")
	if strings.TrimSpace(text) == "" {
		return "", "", "", ErrNoText
	}
	// Short paragraphs set larger than the body text are headings.
	body, most := 0, 0
	for sz, c := range sizeChars {
		if c > most || c == most && sz < body {
			body, most = sz, c
		}
	}
	esc := strings.NewReplacer("*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "`", "\\`")
	mdParas := make([]string, len(paras))
	for i, p := range paras {
		m := esc.Replace(p)
		switch sz := sizes[i]; {
		case body > 0 && len(p) <= 150 && sz >= float64(body)*1.6:
			mdParas[i] = "# " + m
		case body > 0 && len(p) <= 150 && sz >= float64(body)*1.15:
			mdParas[i] = "## " + m
		case bolds[i] && len(p) <= 100 && !strings.HasSuffix(p, "."):
			mdParas[i] = "### " + m
		default:
			mdParas[i] = escapeLineStart(m)
		}
	}
	return text, strings.Join(mdParas, "\n\n"), title, nil
}

func pdfTitle(r *pdf.Reader) (title string) {
	defer func() {
		if recover() != nil {
			title = ""
		}
	}()
	t := r.Trailer().Key("Info").Key("Title")
	if t.IsNull() {
		return ""
	}
	s := strings.TrimSpace(t.Text())
	if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return ""
	}
	return s
}

// pageLines returns the page's text lines, top to bottom.
func pageLines(p pdf.Page) (lines []pdfLine) {
	defer func() {
		if recover() != nil {
			lines = nil
		}
	}()
	content := p.Content()
	gs := make([]glyph, 0, len(content.Text))
	for _, t := range content.Text {
		if t.S == "" {
			continue
		}
		gs = append(gs, glyph{x: t.X, y: t.Y, w: t.W, size: t.FontSize, s: t.S, bold: boldFont(t.Font)})
	}
	if len(gs) == 0 {
		return nil
	}
	// Group glyphs into lines: same baseline within a third of the font size.
	sort.SliceStable(gs, func(a, b int) bool {
		if math.Abs(gs[a].y-gs[b].y) > 0.01 {
			return gs[a].y > gs[b].y
		}
		return false
	})
	var groups [][]glyph
	for _, g := range gs {
		tol := math.Max(1, math.Abs(g.size)*0.35)
		if n := len(groups); n > 0 && math.Abs(groups[n-1][0].y-g.y) <= tol {
			groups[n-1] = append(groups[n-1], g)
			continue
		}
		groups = append(groups, []glyph{g})
	}
	var segs []pdfSeg
	for _, line := range groups {
		sort.SliceStable(line, func(a, b int) bool { return line[a].x < line[b].x })
		segs = append(segs, lineSegments(line)...)
	}
	return columnOrder(segs)
}

// pdfSeg is a run of text on one baseline, bounded by wide gaps (a gutter
// between columns, or between table cells).
type pdfSeg struct {
	x0, x1, y, size float64
	text            string
	first, last     bool // first and last segment of its line
	bold            bool // most of its letters are bold
}

// lineSegments turns the glyphs of one baseline into text segments.
func lineSegments(line []glyph) []pdfSeg {
	var segs []pdfSeg
	var sb strings.Builder
	size, x0, x1 := 0.0, line[0].x, line[0].x
	boldN, letters := 0, 0
	// When the PDF writes its spaces as glyphs, trust them and split
	// only at wide gaps; otherwise infer spaces from the gaps.
	explicit := false
	for _, g := range line {
		if g.s == " " {
			explicit = true
			break
		}
	}
	emit := func() {
		txt := strings.Join(strings.Fields(strings.ToValidUTF8(sb.String(), "")), " ")
		if txt != "" {
			segs = append(segs, pdfSeg{x0: x0, x1: x1, y: line[0].y, size: size, text: txt, bold: letters > 0 && boldN*10 >= letters*9})
		}
		sb.Reset()
		boldN, letters = 0, 0
	}
	for k, g := range line {
		fs := math.Abs(g.size)
		w := g.w
		if w <= 0 {
			w = 0.5 * fs // width unknown: a typical glyph
		}
		if k > 0 {
			prev := line[k-1]
			pw := prev.w
			if pw <= 0 {
				pw = 0.5 * math.Abs(prev.size)
			}
			gap := g.x - (prev.x + pw)
			if gap > 3*fs && g.s != " " {
				emit()
				size, x0 = 0, g.x
			} else {
				thr := 0.18 * fs
				if explicit || prev.w <= 0 {
					thr = 0.6 * fs
				}
				if gap > thr && !strings.HasSuffix(sb.String(), " ") && g.s != " " {
					sb.WriteByte(' ')
				}
			}
		}
		size = math.Max(size, fs)
		x1 = g.x + w
		sb.WriteString(g.s)
		if g.s != " " {
			letters++
			if g.bold {
				boldN++
			}
		}
	}
	emit()
	if len(segs) > 0 {
		segs[0].first = true
		segs[len(segs)-1].last = true
	}
	return segs
}

// columnOrder turns segments into lines in reading order. On a page set in
// two columns (most lines split by a gutter at the same place, near the
// middle), the left column is read before the right one; otherwise the
// segments of each baseline are joined.
func columnOrder(segs []pdfSeg) []pdfLine {
	if len(segs) == 0 {
		return nil
	}
	left, right := segs[0].x0, segs[0].x1
	var gutters []float64
	lines := 0
	for k, sg := range segs {
		left, right = math.Min(left, sg.x0), math.Max(right, sg.x1)
		if sg.first {
			lines++
		}
		if !sg.last && k+1 < len(segs) {
			gutters = append(gutters, (sg.x1+segs[k+1].x0)/2)
		}
	}
	split := 0.0
	if len(gutters) >= 5 && len(gutters)*10 >= lines*4 {
		sorted := append([]float64(nil), gutters...)
		sort.Float64s(sorted)
		med := sorted[len(sorted)/2]
		near := 0
		for _, g := range gutters {
			if math.Abs(g-med) <= 15 {
				near++
			}
		}
		width := right - left
		if near*10 >= len(gutters)*8 && med > left+0.3*width && med < left+0.7*width {
			split = med
		}
	}
	var out []pdfLine
	if split > 0 {
		for pass := 0; pass < 2; pass++ {
			for _, sg := range segs {
				if (sg.x0 < split) == (pass == 0) {
					out = append(out, pdfLine{y: sg.y, size: sg.size, x0: sg.x0, text: sg.text, bold: sg.bold})
				}
			}
		}
		return out
	}
	for _, sg := range segs {
		if !sg.first && len(out) > 0 {
			out[len(out)-1].text += " " + sg.text
			out[len(out)-1].bold = out[len(out)-1].bold && sg.bold
			continue
		}
		out = append(out, pdfLine{y: sg.y, size: sg.size, x0: sg.x0, text: sg.text, bold: sg.bold})
	}
	return out
}

// typicalLeading is the most common distance between consecutive lines.
func typicalLeading(lines []pdfLine) float64 {
	counts := map[int]int{}
	for k := 1; k < len(lines); k++ {
		d := lines[k-1].y - lines[k].y
		if d > 0 {
			counts[int(math.Round(d))]++
		}
	}
	best, bc := 0, 0
	for d, c := range counts {
		if c > bc || c == bc && d < best {
			best, bc = d, c
		}
	}
	if best == 0 {
		return 14
	}
	return float64(best)
}

// startsItem reports a line that opens a list item or numbered section.
func startsItem(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '•', '●', '▪', '■', '◦', '–', '-', '*', '·', '\uf0b7':
		return true
	}
	j := 0
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
		j++
	}
	if j > 0 && j < 8 && j < len(s) && s[j] == ' ' && strings.Contains(s[:j], ".") {
		return true
	}
	if len(s) > 3 && s[0] == '(' && s[2] == ')' {
		return true
	}
	return false
}

// joinPDFLines joins the lines of one paragraph, mending words hyphenated
// at a line end.
func joinPDFLines(lines []string) string {
	var sb strings.Builder
	for k, l := range lines {
		if k > 0 {
			prev := sb.String()
			next, _ := utf8.DecodeRuneInString(l)
			if strings.HasSuffix(prev, "-") && len(prev) > 1 && unicode.IsLower(next) {
				before, _ := utf8.DecodeLastRuneInString(prev[:len(prev)-1])
				if unicode.IsLetter(before) {
					sb.Reset()
					sb.WriteString(prev[:len(prev)-1])
					sb.WriteString(l)
					continue
				}
			}
			sb.WriteByte(' ')
		}
		sb.WriteString(l)
	}
	return sb.String()
}
