package extract

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The HTML is read with x/net/html's tokenizer into a compact tree held in
// one slice. The tree builder is a forgiving subset of the HTML5 tree
// construction rules (implied end tags for p, li, dt/dd, table cells and
// headings; stray end tags ignored); that is all text extraction needs, and
// it keeps every step linear: nesting is capped, end tags are matched
// through per-tag counters, and subtrees we never read (scripts, styles,
// SVG, templates, ...) are skipped without building nodes.

const maxDepth = 512 // deeper elements are flattened into their ancestor at this depth

// maxNodes is the most elements and text runs one page may build: a node
// is about 150 bytes, so the tree stays under 15 MB however the page is
// made. Ten megabytes of "<b>xy</b>" would be 2.3 million nodes and over
// a gigabyte with the strings and the rendering; the largest legal page of
// the dev set builds 2,911.
const maxNodes = 100_000

// errTooManyNodes refuses a page whose tree would pass maxNodes; it is
// found while parsing, before the nodes past the budget are made.
var errTooManyNodes = fmt.Errorf("%w: the page has more than %d elements and runs of text", ErrTooComplex, maxNodes)

const (
	flHidden      uint16 = 1 << iota // hidden attribute, display:none, visibility:hidden, type=hidden
	flAriaHidden                     // aria-hidden="true"
	flOpen                           // open attribute (details, dialog)
	flExpander                       // aria-expanded / aria-controls: an accordion or tab trigger
	flBlockDesc                      // has a block-level descendant (computed)
	flCustom                         // custom element (name with a dash) or unknown tag
	flHeadingDesc                    // is or contains a heading (computed)
	flInteractive                    // is or contains a form control or a plain button (computed)
	flOffscreen                      // inline style puts it off-screen or clips it to nothing
)

type node struct {
	parent, first, last, next int32
	tag                       atom.Atom
	flags                     uint16
	isText                    bool
	text                      string // text content (text nodes)
	attrs                     string // lower-cased class and id, space separated
	role                      string
	label                     string // aria-label, lower-cased
	href                      string
	span                      int32 // colspan
	// computed bottom-up
	textLen int32  // visible non-space characters in the subtree
	linkLen int32  // of those, inside links
	links   int32  // number of links in the subtree
	anchors int32  // of those, links to a place in the page (#...)
	end     int32  // index of the last node of the subtree
	hash    uint64 // polynomial hash of the subtree's non-space text
	pow     uint64 // hashBase^(number of hashed bytes)
}

type tree struct {
	n     []node // n[0] is the document
	title string
	lang  string
	// noscript holds the raw content of <noscript> elements: the page's
	// text when everything else is rendered by scripts.
	noscript []byte
	body     int32
}

// skipSubtree are elements whose content is never text we show.
var skipSubtree = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Select: true, atom.Textarea: true,
	atom.Iframe: true, atom.Object: true, atom.Canvas: true,
	atom.Noembed: true, atom.Noframes: true, atom.Audio: true, atom.Video: true,
	atom.Datalist: true, atom.Title: true,
	atom.Xmp: true, atom.Plaintext: true,
}

// rawText are the tags the tokenizer reads as raw text up to their end tag.
var rawText = map[atom.Atom]bool{
	atom.Iframe: true, atom.Noembed: true, atom.Noframes: true, atom.Noscript: true,
	atom.Plaintext: true, atom.Script: true, atom.Style: true, atom.Textarea: true,
	atom.Title: true, atom.Xmp: true,
}

var voidElems = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Source: true, atom.Track: true, atom.Wbr: true, atom.Param: true, atom.Keygen: true,
}

// plainFormatting tags have no attribute we read: skipping their
// attributes saves the tokenizer's copies.
var plainFormatting = map[atom.Atom]bool{
	atom.B: true, atom.I: true, atom.Em: true, atom.Strong: true, atom.U: true, atom.Sup: true,
	atom.Sub: true, atom.Small: true, atom.Code: true, atom.Br: true, atom.Wbr: true, atom.Abbr: true,
	atom.Mark: true, atom.Time: true, atom.S: true, atom.Strike: true, atom.Font: true, atom.Tt: true,
	atom.Cite: true, atom.Dfn: true, atom.Kbd: true, atom.Var: true, atom.Samp: true, atom.Q: true,
	atom.Img: true, atom.Source: true, atom.Link: true, atom.Meta: true,
}

// closesP are start tags that close an open <p>.
var closesP = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Details: true, atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Header: true, atom.Hgroup: true, atom.Hr: true, atom.Main: true, atom.Menu: true,
	atom.Nav: true, atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true,
	atom.Table: true, atom.Ul: true, atom.Li: true, atom.Dd: true, atom.Dt: true,
}

func isHeading(a atom.Atom) bool {
	return a == atom.H1 || a == atom.H2 || a == atom.H3 || a == atom.H4 || a == atom.H5 || a == atom.H6
}

type builder struct {
	t       *tree
	stack   []int32
	open    map[atom.Atom]int32 // open elements per tag
	openCus map[string]int32    // open custom elements per name
	cusName map[int32]string
	seen    map[atom.Atom]bool // html and head elements already created
}

func parseTree(src []byte) (*tree, error) {
	// Room for the nodes the end tags promise, within the budget.
	t := &tree{n: make([]node, 1, min(bytes.Count(src, []byte("</")), maxNodes)+16), body: -1}
	t.n[0] = node{parent: -1, first: -1, last: -1, next: -1}
	b := &builder{t: t, stack: []int32{0}, open: map[atom.Atom]int32{}, openCus: map[string]int32{}, cusName: map[int32]string{}, seen: map[atom.Atom]bool{}}
	z := html.NewTokenizer(bytes.NewReader(src))
	var skip atom.Atom
	skipDepth := 0
	var noscript bytes.Buffer
	var titleBuf strings.Builder
	inTitle := false
	for {
		if len(t.n) > maxNodes { // a token adds at most one node
			return nil, errTooManyNodes
		}
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			t.title = strings.TrimSpace(collapseSpace(titleBuf.String()))
			t.noscript = noscript.Bytes()
			return t, nil
		case html.TextToken:
			if skipDepth > 0 {
				if inTitle && titleBuf.Len() < 2000 {
					titleBuf.Write(z.Text())
				} else if skip == atom.Noscript && noscript.Len() < 4<<20 {
					noscript.Write(z.Text())
					noscript.WriteByte('\n')
				}
				continue
			}
			b.addText(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if tt == html.StartTagToken && a == skip {
					skipDepth++
				}
				continue
			}
			if skipSubtree[a] {
				if a == atom.Title && t.title == "" && titleBuf.Len() == 0 {
					inTitle = true
				}
				if tt == html.SelfClosingTagToken && !rawText[a] {
					continue // <svg/>: no content; raw-text tags stay raw even when "self-closed"
				}
				if a == atom.Select || a == atom.Textarea {
					b.t.n[b.cur()].flags |= flInteractive
				}
				skip, skipDepth = a, 1
				continue
			}
			b.start(z, a, name, hasAttr, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if a == skip {
					skipDepth--
					if skipDepth == 0 {
						inTitle = false
					}
				}
				continue
			}
			b.end(a, name)
		}
	}
}

func (b *builder) cur() int32 { return b.stack[len(b.stack)-1] }

func (b *builder) appendChild(p int32, nd node) int32 {
	t := b.t
	nd.parent, nd.first, nd.last, nd.next = p, -1, -1, -1
	id := int32(len(t.n))
	t.n = append(t.n, nd)
	if t.n[p].last >= 0 {
		t.n[t.n[p].last].next = id
	} else {
		t.n[p].first = id
	}
	t.n[p].last = id
	return id
}

func (b *builder) addText(s []byte) {
	if len(s) == 0 {
		return
	}
	// Adjacent text nodes (around comments or skipped elements) stay
	// separate: merging them would copy the text again and again.
	b.appendChild(b.cur(), node{isText: true, text: string(s)})
}

func (b *builder) pop() {
	id := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	a := b.t.n[id].tag
	if a != 0 {
		b.open[a]--
	} else if nm, ok := b.cusName[id]; ok {
		b.openCus[nm]--
	}
}

// popTo pops up to and including the nearest open element with tag a,
// unless one of the stop tags comes first (searching at most 64 levels).
func (b *builder) popTo(a atom.Atom, stops ...atom.Atom) {
	if b.open[a] == 0 {
		return
	}
	for i := len(b.stack) - 1; i > 0 && i >= len(b.stack)-64; i-- {
		tg := b.t.n[b.stack[i]].tag
		if tg == a {
			for len(b.stack) > i {
				b.pop()
			}
			return
		}
		for _, s := range stops {
			if tg == s {
				return
			}
		}
	}
}

func (b *builder) start(z *html.Tokenizer, a atom.Atom, name []byte, hasAttr, selfClosing bool) {
	t := b.t
	switch a {
	case atom.Html, atom.Head:
		if b.seen[a] {
			return
		}
		b.seen[a] = true
	case atom.Body:
		if t.body >= 0 {
			return
		}
		b.popTo(atom.Head)
	}
	// implied end tags
	if closesP[a] && b.open[atom.P] > 0 {
		b.popTo(atom.P, atom.Button, atom.Table, atom.Td, atom.Th, atom.Li, atom.Dd, atom.Dt)
	}
	switch {
	case a == atom.Li:
		b.popTo(atom.Li, atom.Ul, atom.Ol, atom.Menu, atom.Table)
	case a == atom.Dt || a == atom.Dd:
		b.popTo(atom.Dt, atom.Dl, atom.Table)
		b.popTo(atom.Dd, atom.Dl, atom.Table)
	case a == atom.Tr:
		b.popTo(atom.Tr, atom.Table)
	case a == atom.Td || a == atom.Th:
		b.popTo(atom.Td, atom.Tr, atom.Table)
		b.popTo(atom.Th, atom.Tr, atom.Table)
	case a == atom.Tbody || a == atom.Thead || a == atom.Tfoot:
		b.popTo(atom.Tbody, atom.Table)
		b.popTo(atom.Thead, atom.Table)
		b.popTo(atom.Tfoot, atom.Table)
	case isHeading(a):
		if top := t.n[b.cur()].tag; isHeading(top) {
			b.pop()
		}
	case a == atom.A:
		b.popTo(atom.A, atom.Td, atom.Th, atom.Table, atom.Li, atom.Div, atom.P)
	}

	nd := node{tag: a}
	if a == 0 || bytes.IndexByte(name, '-') >= 0 {
		nd.flags |= flCustom
	}
	if hasAttr && !plainFormatting[a] {
		var cls, id string
		for {
			k, v, more := z.TagAttr()
			switch string(k) {
			case "class":
				cls = string(v)
			case "id":
				id = string(v)
			case "role":
				nd.role = strings.ToLower(strings.TrimSpace(string(v)))
			case "hidden":
				if !strings.EqualFold(string(v), "until-found") {
					nd.flags |= flHidden
				}
			case "style":
				if hiddenStyle(v) {
					nd.flags |= flHidden
				} else if offscreenStyle(v) {
					nd.flags |= flOffscreen
				}
			case "type":
				if a == atom.Input && strings.EqualFold(string(v), "hidden") {
					nd.flags |= flHidden
				}
			case "aria-hidden":
				if strings.EqualFold(strings.TrimSpace(string(v)), "true") {
					nd.flags |= flAriaHidden
				}
			case "aria-label":
				nd.label = strings.ToLower(string(v))
			case "aria-expanded", "aria-controls", "data-toggle", "data-bs-toggle":
				nd.flags |= flExpander
			case "open":
				nd.flags |= flOpen
			case "href":
				if a == atom.A {
					nd.href = strings.TrimSpace(string(v))
				}
			case "colspan":
				n := 0
				for _, c := range v {
					if c < '0' || c > '9' {
						break
					}
					n = n*10 + int(c-'0')
				}
				if n > 1 && n < 100 {
					nd.span = int32(n)
				}
			case "lang":
				if a == atom.Html && t.lang == "" {
					t.lang = strings.ToLower(string(v))
				}
			}
			if !more {
				break
			}
		}
		if cls != "" || id != "" {
			nd.attrs = strings.ToLower(cls + " " + id)
		}
	}
	switch a {
	case atom.Input:
		if nd.flags&flHidden == 0 {
			nd.flags |= flInteractive
		}
	case atom.Button:
		if nd.flags&flExpander == 0 && !b.inHeading() {
			nd.flags |= flInteractive
		}
	}
	p := b.cur()
	id := b.appendChild(p, nd)
	if a == atom.Body {
		t.body = id
	}
	if voidElems[a] || selfClosing && a == 0 {
		return
	}
	if len(b.stack) >= maxDepth {
		return // flatten: children go to the current element
	}
	b.stack = append(b.stack, id)
	if a != 0 {
		b.open[a]++
	} else {
		nm := string(name)
		b.cusName[id] = nm
		b.openCus[nm]++
	}
}

// inHeading reports an open heading, summary or term close above.
func (b *builder) inHeading() bool {
	for i, k := len(b.stack)-1, 0; i > 0 && k < 4; i, k = i-1, k+1 {
		tg := b.t.n[b.stack[i]].tag
		if isHeading(tg) || tg == atom.Summary || tg == atom.Dt {
			return true
		}
	}
	return false
}

func (b *builder) end(a atom.Atom, name []byte) {
	switch a {
	case atom.Html, atom.Body:
		return // keep trailing content in the body
	case atom.Br:
		b.appendChild(b.cur(), node{tag: atom.Br})
		return
	case atom.P:
		if b.open[atom.P] == 0 {
			return
		}
	}
	if a == 0 {
		nm := string(name)
		if b.openCus[nm] <= 0 {
			return
		}
		for len(b.stack) > 1 {
			top := b.stack[len(b.stack)-1]
			b.pop()
			if b.t.n[top].tag == 0 && b.cusName[top] == nm {
				return
			}
		}
		return
	}
	if b.open[a] <= 0 {
		return
	}
	for len(b.stack) > 1 {
		top := b.stack[len(b.stack)-1]
		b.pop()
		if b.t.n[top].tag == a {
			return
		}
	}
}

// hiddenStyle reports an inline style that hides the element.
func hiddenStyle(v []byte) bool {
	if len(v) < 12 {
		return false
	}
	s := strings.ToLower(string(v))
	s = strings.ReplaceAll(s, " ", "")
	return strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden")
}

// offscreenStyle reports an inline style that leaves the element in the
// page but out of sight: placed far off the screen or clipped to nothing.
// Screen-reader-only text and the probe elements of font-loading scripts
// are hidden so.
func offscreenStyle(v []byte) bool {
	if len(v) < 12 {
		return false
	}
	s := ";" + strings.ReplaceAll(strings.ToLower(string(v)), " ", "")
	if strings.Contains(s, "clip:rect(0") || strings.Contains(s, "clip:rect(1px") || strings.Contains(s, "clip-path:inset(50%)") {
		return true
	}
	if i := strings.Index(s, ";text-indent:-"); i >= 0 && farOff(s[i+len(";text-indent:-"):]) {
		return true // text replaced by an image
	}
	if !strings.Contains(s, ";position:absolute") && !strings.Contains(s, ";position:fixed") {
		return false
	}
	for _, p := range []string{";left:-", ";top:-", ";right:-"} {
		if i := strings.Index(s, p); i >= 0 && farOff(s[i+len(p):]) {
			return true
		}
	}
	return false
}

// farOff reports a length of at least 100 pixels (or 10 ems) at the start
// of s: a small negative offset is layout, a large one hides.
func farOff(s string) bool {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n >= 3 || n == 2 && strings.HasPrefix(s[2:], "em")
}

// collapseSpace replaces runs of white space with one space and drops
// invisible characters.
func collapseSpace(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	space := false
	for _, r := range s {
		if isSpace(r) {
			space = true
			continue
		}
		if isInvisible(r) {
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteRune(r)
	}
	return sb.String()
}
