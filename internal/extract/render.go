package extract

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

type blockKind uint8

const (
	bPara blockKind = iota
	bHeading
	bItem
	bTable
	bPre
)

type block struct {
	kind     blockKind
	text, md string
}

// inline accumulates one paragraph in both output forms, collapsing white
// space as a browser does.
type inline struct {
	t, m           bbuf
	tSpace, mSpace bool // a space is pending
}

// bbuf is a byte buffer that keeps its memory across paragraphs.
type bbuf struct{ b []byte }

func (x *bbuf) addByte(c byte)     { x.b = append(x.b, c) }
func (x *bbuf) addRune(r rune)     { x.b = utf8.AppendRune(x.b, r) }
func (x *bbuf) addString(s string) { x.b = append(x.b, s...) }
func (x *bbuf) Len() int           { return len(x.b) }
func (x *bbuf) String() string     { return string(x.b) }
func (x *bbuf) Reset()             { x.b = x.b[:0] }

func (in *inline) empty() bool { return in.t.Len() == 0 && in.m.Len() == 0 }

func (in *inline) space() { in.tSpace, in.mSpace = true, true }

// write appends visible text; md holds the Markdown-escaped version.
func (in *inline) writeText(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if isSpace(rune(c)) {
				in.space()
				continue
			}
			in.flushSpace()
			in.t.addByte(c)
			switch c {
			case '*', '_', '`', '[', ']', '\\', '<', '>', '|':
				in.m.addByte('\\')
			}
			in.m.addByte(c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case isSpace(r):
			in.space()
			continue
		case isInvisible(r), r == utf8.RuneError && size == 1: // an invalid byte
			continue
		}
		in.flushSpace()
		in.t.addRune(r)
		in.m.addRune(r)
	}
}

func (in *inline) flushSpace() {
	if in.tSpace && in.t.Len() > 0 {
		in.t.addByte(' ')
	}
	if in.mSpace && in.m.Len() > 0 {
		in.m.addByte(' ')
	}
	in.tSpace, in.mSpace = false, false
}

// newline is a hard line break (<br>).
func (in *inline) newline() {
	in.tSpace, in.mSpace = false, false
	if n := in.t.Len(); n > 0 && !(n >= 2 && in.t.b[n-1] == '\n' && in.t.b[n-2] == '\n') {
		in.t.addByte('\n') // at most one blank line for a run of <br>
	}
	if n := in.m.Len(); n > 0 && !(n >= 3 && in.m.b[n-1] == '\n' && in.m.b[n-2] == '\n') {
		if in.m.b[n-1] == '\n' {
			in.m.addByte('\n')
		} else {
			in.m.addString("  \n")
		}
	}
}

type listCtx struct {
	ordered bool
	n       int
}

type renderer struct {
	s        *selection
	n        []node
	base     *url.URL
	cur      *inline
	blocks   []block
	lists    []listCtx
	marker   string // Markdown list marker waiting for the item's first paragraph
	inItem   int
	fmtDepth int
	firstH1  string
	pool     []*inline
	inCell   int
}

func (r *renderer) getInline() *inline {
	if n := len(r.pool); n > 0 {
		in := r.pool[n-1]
		r.pool = r.pool[:n-1]
		return in
	}
	return &inline{}
}

func (r *renderer) putInline(in *inline) {
	in.reset()
	r.pool = append(r.pool, in)
}

func (in *inline) reset() {
	in.t.Reset()
	in.m.Reset()
	in.tSpace, in.mSpace = false, false
}

func render(s *selection, pageURL string) *renderer {
	r := &renderer{s: s, n: s.t.n, cur: &inline{}}
	if pageURL != "" {
		if u, err := url.Parse(pageURL); err == nil && u.IsAbs() {
			r.base = u
		}
	}
	r.walkChildren(s.root)
	r.flush(bPara, 0)
	return r
}

func (r *renderer) walkChildren(i int32) {
	for c := r.n[i].first; c >= 0; c = r.n[c].next {
		r.walk(c)
	}
}

func (r *renderer) isBlock(i int32) bool {
	nd := &r.n[i]
	return !inlineTags[nd.tag] || nd.flags&flCustom != 0
}

func (r *renderer) walk(i int32) {
	nd := &r.n[i]
	if nd.isText {
		r.cur.writeText(nd.text)
		return
	}
	if r.s.drop[i] {
		if r.isBlock(i) {
			r.cur.space()
		}
		return
	}
	switch nd.tag {
	case atom.Br:
		r.cur.newline()
		return
	case atom.Hr:
		r.flush(bPara, 0)
		return
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		r.flush(bPara, 0)
		r.walkChildren(i)
		lvl := int(nd.tag.String()[1] - '0')
		if lvl == 1 && r.firstH1 == "" {
			r.firstH1 = strings.TrimSpace(r.cur.t.String())
		}
		r.flush(bHeading, lvl)
		return
	case atom.Ul, atom.Ol, atom.Menu:
		r.flush(bPara, 0)
		r.lists = append(r.lists, listCtx{ordered: nd.tag == atom.Ol})
		r.walkChildren(i)
		r.flush(bPara, 0)
		r.lists = r.lists[:len(r.lists)-1]
		return
	case atom.Li:
		r.flush(bPara, 0)
		mk := "- "
		if len(r.lists) > 0 {
			l := &r.lists[len(r.lists)-1]
			l.n++
			if l.ordered {
				mk = strconv.Itoa(l.n) + ". "
			}
		}
		saved := r.marker
		r.marker = mk
		r.inItem++
		r.walkChildren(i)
		r.flush(bItem, 0)
		r.inItem--
		r.marker = saved
		return
	case atom.Dt:
		r.flush(bPara, 0)
		r.walkChildren(i)
		if !r.cur.empty() {
			md := strings.TrimSpace(r.cur.m.String())
			r.cur.m.Reset()
			r.cur.m.addString("**" + md + "**")
		}
		r.flush(bPara, 0)
		return
	case atom.Pre:
		r.flush(bPara, 0)
		var sb strings.Builder
		r.rawText(i, &sb)
		txt := strings.Trim(sb.String(), "\n")
		if strings.TrimSpace(txt) != "" {
			r.blocks = append(r.blocks, block{kind: bPre, text: txt, md: "```\n" + txt + "\n```"})
		}
		return
	case atom.Table:
		if r.inCell == 0 && r.dataTable(i) { // a table in a cell is flattened into it
			r.flush(bPara, 0)
			r.table(i)
			return
		}
	case atom.A:
		if nd.flags&flBlockDesc == 0 && r.fmtDepth < 2 {
			href := r.resolve(nd.href)
			if href != "" {
				r.wrap(i, "[", "]("+href+")")
				return
			}
		}
		r.walkChildren(i)
		return
	case atom.Strong, atom.B:
		if nd.flags&flBlockDesc == 0 && r.fmtDepth < 2 {
			r.wrap(i, "**", "**")
			return
		}
	case atom.Em, atom.I:
		if nd.flags&flBlockDesc == 0 && r.fmtDepth < 2 {
			r.wrap(i, "_", "_")
			return
		}
	}
	if r.isBlock(i) {
		if nd.role == "heading" {
			r.flush(bPara, 0)
			r.walkChildren(i)
			r.flush(bHeading, 3)
			return
		}
		r.flush(bPara, 0)
		r.walkChildren(i)
		r.flush(bPara, 0)
		return
	}
	r.walkChildren(i)
}

// wrap renders an inline element's children with Markdown markers around
// them (moving edge white space outside the markers).
func (r *renderer) wrap(i int32, open, close string) {
	outer := r.cur
	sub := r.getInline()
	defer r.putInline(sub)
	r.cur = sub
	r.fmtDepth++
	r.walkChildren(i)
	r.fmtDepth--
	r.cur = outer
	t, m := sub.t.String(), sub.m.String()
	if strings.TrimSpace(t) == "" {
		if sub.tSpace || t != "" {
			outer.space()
		}
		return
	}
	lead := strings.HasPrefix(m, " ") || strings.HasPrefix(t, " ")
	if lead {
		outer.space()
	}
	outer.flushSpace()
	outer.t.addString(strings.TrimSpace(t))
	m = strings.TrimSpace(m)
	if strings.Contains(m, "\n") || open == "[" && strings.TrimSpace(t) == "" {
		outer.m.addString(m)
	} else {
		outer.m.addString(open + m + close)
	}
	if sub.tSpace || strings.HasSuffix(t, " ") {
		outer.space()
	}
}

func (r *renderer) resolve(href string) string {
	if href == "" || strings.HasPrefix(href, "#") {
		return ""
	}
	low := strings.ToLower(href)
	if strings.HasPrefix(low, "javascript:") || strings.HasPrefix(low, "data:") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if r.base != nil {
		u = r.base.ResolveReference(u)
	}
	if !u.IsAbs() && !strings.HasPrefix(href, "/") {
		return ""
	}
	return hrefEscaper.Replace(u.String())
}

// hrefEscaper escapes what would end or break a Markdown link target.
var hrefEscaper = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20")

// rawText collects text keeping white space (for <pre>).
func (r *renderer) rawText(i int32, sb *strings.Builder) {
	for c := r.n[i].first; c >= 0; c = r.n[c].next {
		nd := &r.n[c]
		switch {
		case nd.isText:
			sb.WriteString(nd.text)
		case nd.tag == atom.Br:
			sb.WriteByte('\n')
		case !r.s.drop[c]:
			r.rawText(c, sb)
		}
	}
}

// flush ends the current paragraph.
func (r *renderer) flush(kind blockKind, level int) {
	in := r.cur
	if in.empty() {
		return
	}
	t := strings.TrimSpace(in.t.String())
	m := strings.TrimSpace(in.m.String())
	in.reset()
	if t == "" {
		return
	}
	b := block{kind: kind, text: t, md: m}
	if kind == bHeading {
		m = strings.ReplaceAll(m, "  \n", " ")
		for _, mk := range []string{"**", "_"} { // a heading is emphasis enough
			if len(m) > 2*len(mk) && strings.HasPrefix(m, mk) && strings.HasSuffix(m, mk) && !strings.Contains(m[len(mk):len(m)-len(mk)], mk) {
				m = m[len(mk) : len(m)-len(mk)]
			}
		}
		b.md = strings.Repeat("#", max(1, min(level, 6))) + " " + m
	} else {
		b.md = escapeLineStart(m)
	}
	if r.inItem > 0 {
		indent := strings.Repeat("   ", max(0, len(r.lists)-1))
		if r.marker != "" {
			b.md = indent + r.marker + b.md
			b.text = "- " + b.text
			r.marker = ""
		} else {
			b.md = indent + "   " + b.md
		}
		b.md = strings.ReplaceAll(b.md, "\n", "\n"+indent+"   ")
		if kind != bHeading {
			b.kind = bItem
		}
	}
	r.blocks = append(r.blocks, b)
}

// escapeLineStart keeps a paragraph that starts like Markdown syntax
// ("# ", "- ", "1. ", "> ") from being read as such.
func escapeLineStart(m string) string {
	if m == "" {
		return m
	}
	switch m[0] {
	case '#', '>', '+', '-', '=':
		if len(m) == 1 || m[1] == ' ' || m[0] == '#' || m[0] == '=' {
			return "\\" + m
		}
	}
	j := 0
	for j < len(m) && m[j] >= '0' && m[j] <= '9' {
		j++
	}
	if j > 0 && j < 10 && j+1 < len(m) && (m[j] == '.' || m[j] == ')') && m[j+1] == ' ' {
		return m[:j] + "\\" + m[j:]
	}
	return m
}

// dataTable tells a table of data from one used for layout.
func (r *renderer) dataTable(i int32) bool {
	n := r.n
	rows, maxCells := 0, 0
	ok := true
	var visit func(j int32, depth int)
	visit = func(j int32, depth int) {
		if !ok || depth > 6 {
			return
		}
		for c := n[j].first; c >= 0 && ok; c = n[c].next {
			nd := &n[c]
			switch nd.tag {
			case atom.Table:
				ok = false
			case atom.Tr:
				rows++
				cells := 0
				for d := nd.first; d >= 0; d = n[d].next {
					if n[d].tag == atom.Td || n[d].tag == atom.Th {
						cells++
						if n[d].textLen > 1500 {
							ok = false
						}
					}
				}
				maxCells = max(maxCells, cells)
			case atom.Thead, atom.Tbody, atom.Tfoot:
				visit(c, depth+1)
			}
		}
	}
	visit(i, 0)
	return ok && rows > 0 && maxCells >= 2
}

func (r *renderer) table(i int32) {
	n := r.n
	var rowsT, rowsM [][]string
	var visit func(j int32)
	visit = func(j int32) {
		for c := n[j].first; c >= 0; c = n[c].next {
			if r.s.drop[c] {
				continue
			}
			switch n[c].tag {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				visit(c)
			case atom.Tr:
				var ct, cm []string
				for d := n[c].first; d >= 0; d = n[d].next {
					if r.s.drop[d] || n[d].tag != atom.Td && n[d].tag != atom.Th {
						continue
					}
					t, m := r.cell(d)
					ct = append(ct, t)
					cm = append(cm, m)
					for k := int32(1); k < n[d].span; k++ {
						ct = append(ct, "")
						cm = append(cm, "")
					}
				}
				if strings.TrimSpace(strings.Join(ct, "")) != "" {
					rowsT = append(rowsT, ct)
					rowsM = append(rowsM, cm)
				}
			case atom.Caption:
				r.walk(c)
				r.flush(bPara, 0)
			}
		}
	}
	visit(i)
	if len(rowsT) == 0 {
		return
	}
	cols := 0
	for _, row := range rowsM {
		cols = max(cols, len(row))
	}
	var tb, mb strings.Builder
	for k, row := range rowsT {
		if k > 0 {
			tb.WriteByte('\n')
		}
		tb.WriteString(strings.Join(nonEmpty(row), " | "))
	}
	for k, row := range rowsM {
		for len(row) < cols {
			row = append(row, "")
		}
		mb.WriteString("| " + strings.Join(row, " | ") + " |\n")
		if k == 0 {
			mb.WriteString("|" + strings.Repeat(" --- |", cols) + "\n")
		}
	}
	r.blocks = append(r.blocks, block{kind: bTable, text: tb.String(), md: strings.TrimRight(mb.String(), "\n")})
}

func nonEmpty(ss []string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cell renders a table cell to one line.
func (r *renderer) cell(d int32) (string, string) {
	start := len(r.blocks)
	savedLists, savedMarker, savedItem := r.lists, r.marker, r.inItem
	r.lists, r.marker, r.inItem = nil, "", 0
	outer := r.cur
	r.cur = r.getInline()
	r.inCell++
	r.walkChildren(d)
	r.inCell--
	r.flush(bPara, 0)
	r.putInline(r.cur)
	r.cur = outer
	r.lists, r.marker, r.inItem = savedLists, savedMarker, savedItem
	var ts, ms []string
	for _, b := range r.blocks[start:] {
		ts = append(ts, strings.ReplaceAll(b.text, "\n", " "))
		ms = append(ms, strings.ReplaceAll(strings.ReplaceAll(b.md, "  \n", "<br>"), "\n", " "))
	}
	r.blocks = r.blocks[:start]
	return strings.Join(ts, " "), strings.Join(ms, "<br>")
}

// join assembles the blocks: paragraphs separated by blank lines, list
// items and table rows by single line breaks.
func joinBlocks(blocks []block) (text, md string) {
	var tb, mb strings.Builder
	nt, nm := 0, 0
	for _, b := range blocks {
		nt += len(b.text) + 2
		nm += len(b.md) + 2
	}
	tb.Grow(nt)
	mb.Grow(nm)
	for k, b := range blocks {
		if k > 0 {
			sep := "\n\n"
			if b.kind == bItem && blocks[k-1].kind == bItem {
				sep = "\n"
			}
			tb.WriteString(sep)
			mb.WriteString(sep)
		}
		tb.WriteString(b.text)
		mb.WriteString(b.md)
	}
	return tb.String(), mb.String()
}
