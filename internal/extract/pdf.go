package extract

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

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

// readPDFText reads a PDF in a worker process when the extractor has
// Workers, else in this process.
func (x *Extractor) readPDFText(raw []byte) (text, md, title string, err error) {
	if x.workers != nil {
		return x.workers.read(raw)
	}
	return x.extractPDF(raw)
}

// extractPDF reads the text of each page in reading order: glyphs grouped
// into lines by baseline, lines top to bottom, words split where the gap
// between glyphs is wider than a fraction of the font size, paragraphs
// split where the gap between lines is wider than the usual leading.
func (x *Extractor) extractPDF(raw []byte) (text, md, title string, err error) {
	title, pages, err := x.readPDF(raw)
	if err != nil {
		return "", "", "", err
	}
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
	for _, lines := range pages {
		gap := typicalLeading(lines)
		for k, l := range lines {
			if k > 0 {
				d := lines[k-1].y - l.y
				if d > gap*1.45 || d < 0 || startsItem(l.text) || l.size > 0 && lines[k-1].size > 0 && math.Abs(l.size-lines[k-1].size) > 1.5 || l.bold != lines[k-1].bold && (headingLine(l) || headingLine(lines[k-1])) {
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

// pdfSeg is a run of text on one baseline, bounded by wide gaps (a gutter
// between columns, or between table cells).
type pdfSeg struct {
	x0, x1, y, size float64
	text            string
	first, last     bool // first and last segment of its line
	bold            bool // most of its letters are bold
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
