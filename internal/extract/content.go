package extract

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html/atom"
)

// Choosing the main text. Legal pages are long, and their boilerplate
// (navigation, site header and footer, cookie and consent dialogs, menus,
// sidebars, share buttons, forms) is short and link-heavy. So instead of a
// news-article scorer that keeps one best container, we keep the whole page
// minus what is recognisably boilerplate, then narrow to the smallest
// container that still holds nearly all the remaining prose. Any rule that
// would drop a large share of the page's text is not applied: boilerplate
// is never the bulk of a legal page, so a rule that matches the bulk has
// matched the document.

// inlineTags are phrasing elements: they never break a line.
var inlineTags = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Cite: true, atom.Code: true, atom.Data: true, atom.Dfn: true, atom.Em: true,
	atom.Font: true, atom.I: true, atom.Kbd: true, atom.Mark: true, atom.Q: true,
	atom.S: true, atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strong: true,
	atom.Sub: true, atom.Sup: true, atom.Time: true, atom.U: true, atom.Var: true,
	atom.Wbr: true, atom.Label: true, atom.Img: true, atom.Big: true, atom.Tt: true,
	atom.Strike: true, atom.Del: true, atom.Ins: true, atom.Nobr: true, atom.Button: true,
	atom.Input: true, atom.Output: true, atom.Meter: true, atom.Progress: true, atom.Ruby: true,
	atom.Rt: true, atom.Rp: true, atom.Picture: true, atom.Source: true,
}

// dropTags never hold document text.
var dropTags = map[atom.Atom]bool{
	atom.Input: true, atom.Option: true, atom.Optgroup: true, atom.Img: true,
	atom.Picture: true, atom.Source: true, atom.Link: true, atom.Meta: true, atom.Base: true,
	atom.Head: true, atom.Area: true, atom.Track: true, atom.Param: true, atom.Progress: true,
	atom.Meter: true,
}

// Words in class, id or aria-label that mark boilerplate. strongWords match
// anywhere (they are distinctive), tokenWords only as a whole token of the
// class or id ("nav" in "site-nav", not in "canvas"). consentWords, the
// consent and cookie tools among the strong words, mark boilerplate however
// much text the element holds.
var (
	consentWords = []string{
		"cookie", "consent", "gdpr", "onetrust", "cookiebot", "didomi", "usercentrics",
		"truste-", "truste_", "osano", "qc-cmp", "iubenda", "cc-banner", "cc-window", "sp_message", "fc-consent", "cmpbox",
		"klaro", "tarteaucitron", "axeptio", "cmplz", "evidon", "trustarc", "borlabs",
	}
	strongWords = append(slices.Clone(consentWords),
		"termly-", "cky-consent",
		"breadcrumb", "skip-link", "skiplink", "skip-to", "social-share",
		"share-buttons", "sharing-buttons", "backtotop", "back-to-top", "scroll-to-top",
		// text for screen readers only ("Opens in a new tab")
		"sr-only", "sronly", "screen-reader", "screenreader", "visually-hidden", "visuallyhidden",
		"hidden-visually", "a11ytext", "a11y-text", "a11y-hidden", "assistive-text", "element-invisible",
	)
)

var tokenWords = map[string]bool{
	"nav": true, "navbar": true, "navigation": true, "navigations": true, "menu": true, "menubar": true,
	"megamenu": true, "sidebar": true, "sidenav": true, "breadcrumbs": true, "share": true,
	"social": true, "toolbar": true, "pagination": true, "pager": true, "modal": true,
	"popup": true, "popover": true, "tooltip": true, "overlay": true,
	"drawer": true, "offcanvas": true, "hamburger": true, "topbar": true, "subscribe": true,
	"signup": true, "login": true, "newsletter": true, "sharing": true, "feedback": true, "advert": true,
	"ads": true, "ad": true, "promo": true, "masthead": true, "sitefooter": true,
	"siteheader": true, "site-footer": true, "site-header": true, "page-header": true, "page-footer": true,
	"global-header": true, "global-footer": true, "globalnav": true, "footer": true,
	"announcement": true, "dialog": true, "language-switcher": true, "langswitch": true,
}

var dropRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"search": true, "menu": true, "menubar": true, "toolbar": true, "dialog": true,
	"alertdialog": true, "tooltip": true, "tablist": true, "form": true, "status": true,
	// a list of choices, such as a language picker: a select box by another name
	"listbox": true,
}

// boilerplateTag reports tags that are boilerplate by their nature.
func boilerplateTag(a atom.Atom) bool {
	switch a {
	case atom.Nav, atom.Aside, atom.Header, atom.Footer, atom.Form, atom.Dialog,
		atom.Menu, atom.Button, atom.Fieldset, atom.Legend:
		return true
	}
	return false
}

// classWords reports whether the lower-cased class/id string matches a
// boilerplate word.
func classWords(s string) bool {
	if s == "" {
		return false
	}
	if containsStrong(s) {
		return true
	}
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == ' ' || s[i] == '_' || s[i] == '-' || s[i] == '\t' || s[i] == ':'
		if !sep {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if tokenWords[s[start:i]] {
				return true
			}
			start = -1
		}
	}
	// whole space-separated classes such as "site-header"
	for len(s) > 0 {
		f, rest, _ := strings.Cut(s, " ")
		if f != "" && tokenWords[f] {
			return true
		}
		s = rest
	}
	return false
}

// computeStats fills textLen, linkLen and links bottom-up. Nodes are stored
// in document order, so children always follow their parent: one reverse
// pass suffices.
func (t *tree) computeStats() {
	n := t.n
	for i := range n {
		n[i].end = int32(i)
		n[i].pow = 1
	}
	// Children are visited last to first, so a parent's text hash is built
	// right to left: H(child + rest) = H(child)*pow(rest) + H(rest).
	for i := len(n) - 1; i >= 1; i-- {
		nd := &n[i]
		if nd.isText {
			nd.textLen = int32(countVisible(nd.text))
			nd.hash, nd.pow = textHash(nd.text)
		}
		if nd.tag == atom.A && nd.href != "" {
			nd.linkLen = nd.textLen
			nd.links++
			if nd.href[0] == '#' && len(nd.href) > 1 {
				nd.anchors++
			}
		}
		if isHeading(nd.tag) || nd.role == "heading" {
			nd.flags |= flHeadingDesc
		}
		p := &n[nd.parent]
		if !nd.isText && !inlineTags[nd.tag] || nd.flags&flBlockDesc != 0 {
			p.flags |= flBlockDesc
		}
		p.flags |= nd.flags & (flHeadingDesc | flInteractive)
		p.textLen += nd.textLen
		if p.tag != atom.A {
			p.linkLen += nd.linkLen
		}
		p.links += nd.links
		p.anchors += nd.anchors
		p.end = max(p.end, nd.end)
		p.hash = nd.hash*p.pow + p.hash
		p.pow *= nd.pow
	}
}

const hashBase = 1099511628211

// textHash hashes the non-space bytes of s.
func textHash(s string) (h, pow uint64) {
	pow = 1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
			continue
		}
		h = h*hashBase + uint64(c)
		pow *= hashBase
	}
	return h, pow
}

// countVisible counts non-space characters (UTF-8 lead bytes).
func countVisible(s string) int {
	c := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' || b&0xc0 == 0x80 {
			continue
		}
		c++
	}
	return c
}

// dropped marks nodes excluded from the text (the whole subtree).
type selection struct {
	t         *tree
	drop      []bool
	inContent []bool // the node is, or is inside, a content landmark
	inArticle []bool // the node is, or is inside, an article or section
	root      int32
}

func (t *tree) selectContent() *selection {
	t.computeStats()
	n := t.n
	body := t.body
	if body < 0 {
		body = 0
	}
	total := n[body].textLen
	s := &selection{t: t, drop: make([]bool, len(n)), inContent: make([]bool, len(n)), inArticle: make([]bool, len(n)), root: body}
	// Small: a rule never drops more than this share of the page text.
	limit := func(i int32) bool { return n[i].textLen*100 <= total*40 }
	for i := int32(1); i < int32(len(n)); i++ {
		nd := &n[i]
		s.inContent[i] = s.inContent[nd.parent] || isContentLandmark(nd)
		s.inArticle[i] = s.inArticle[nd.parent] || nd.tag == atom.Article || nd.tag == atom.Section || nd.role == "article"
		if s.drop[nd.parent] {
			s.drop[i] = true
			continue
		}
		if nd.isText {
			continue
		}
		if dropTags[nd.tag] {
			s.drop[i] = true
			continue
		}
		if s.isProbe(i) || s.isBoilerplate(i) && limit(i) {
			s.drop[i] = true
			continue
		}
		if (s.linkBlock(i) || tocList(nd)) && nd.textLen*100 <= total*15 {
			s.drop[i] = true
		}
	}
	s.dropDuplicates(body)
	s.root = s.chooseRoot(body)
	return s
}

// dropDuplicates drops the later copy of a large subtree whose text
// repeats an earlier one: responsive layouts often ship the document twice
// (a desktop and a mobile copy), one of them hidden by CSS we do not run.
func (s *selection) dropDuplicates(body int32) {
	n := s.t.n
	seen := map[uint64]int32{}
	for i := body + 1; i < int32(len(n)); i++ {
		nd := &n[i]
		// Only sections (with a heading) or long runs of text count: a
		// paragraph may well repeat on purpose.
		if nd.isText || s.drop[i] || nd.textLen < 300 || nd.flags&flHeadingDesc == 0 && nd.textLen < 3000 {
			continue
		}
		j, ok := seen[nd.hash]
		if !ok {
			seen[nd.hash] = i
			continue
		}
		if j < i && i <= n[j].end { // a wrapper and its only content
			continue
		}
		if n[j].textLen == nd.textLen {
			for k := i; k <= nd.end; k++ {
				s.drop[k] = true
			}
			i = nd.end
		}
	}
}

// sectionLike reports an element that reads like a document section: a
// heading, then prose rather than links.
func sectionLike(nd *node) bool {
	return nd.flags&flHeadingDesc != 0 && nd.textLen >= 120 && nd.linkLen*2 < nd.textLen
}

// isPanel reports a tab panel or the collapsible part of an accordion.
func isPanel(nd *node) bool {
	if nd.role == "tabpanel" || nd.role == "region" || nd.tag == atom.Details {
		return true
	}
	for _, w := range []string{"tab", "panel", "accordion", "collapse", "expand", "toggle-content", "disclosure", "more", "truncat"} {
		if strings.Contains(nd.attrs, w) {
			return true
		}
	}
	return false
}

// tocList reports an in-page table of contents: a list of links to the
// page's own sections. The headings it repeats are kept where they stand.
func tocList(nd *node) bool {
	switch nd.tag {
	case atom.Ul, atom.Ol, atom.Div, atom.Nav:
	default:
		return false
	}
	return nd.anchors >= 4 && nd.anchors*10 >= nd.links*9 && nd.linkLen*10 >= nd.textLen*8
}

// linkBlock reports a block that is a list of links (a menu or a link
// farm) outside the document's own landmarks.
func (s *selection) linkBlock(i int32) bool {
	nd := &s.t.n[i]
	switch nd.tag {
	case atom.Div, atom.Ul, atom.Ol, atom.Section, atom.Table:
	default:
		return false
	}
	return nd.links >= 3 && nd.linkLen*10 >= nd.textLen*7 && !s.insideContent(i)
}

// isBoilerplate applies the element-level rules.
func (s *selection) isBoilerplate(i int32) bool {
	n := s.t.n
	nd := &n[i]
	if nd.flags&(flHidden|flAriaHidden|flOffscreen) != 0 {
		// Hidden panels of tabs and accordions hold document sections: keep
		// hidden elements that carry real prose rather than links, and
		// panels that say they are panels.
		prose := nd.linkLen*3 < nd.textLen
		keep := prose && (nd.textLen >= 400 || nd.textLen >= 40 && isPanel(nd))
		if !keep || !sectionLike(nd) && (classWords(nd.attrs) || classWords(nd.label)) {
			return true
		}
	}
	if boilerplateTag(nd.tag) {
		switch nd.tag {
		case atom.Header:
			// Section and article headers belong to the text.
			if s.insideContent(i) {
				return false
			}
		case atom.Footer:
			// An article's footer may hold its dates; a footer directly in
			// <main> is the site's, misplaced.
			if s.inArticle[nd.parent] {
				return false
			}
		case atom.Aside:
			// An aside within the document is a summary or a note; a
			// sidebar of links is not.
			if s.insideContent(i) && nd.linkLen*2 < nd.textLen {
				return false
			}
		case atom.Button:
			// Accordion triggers carry section titles.
			if nd.flags&flExpander != 0 || s.inHeading(i) {
				return false
			}
		case atom.Form:
			// Some frameworks wrap the whole page in one form.
			return nd.textLen < 2000 || nd.linkLen*2 > nd.textLen
		case atom.Dialog:
			return nd.flags&flOpen == 0 || nd.textLen < 2000
		}
		return true
	}
	if nd.role != "" && dropRoles[nd.role] {
		if nd.role == "banner" && s.insideContent(i) || nd.role == "contentinfo" && s.inArticle[nd.parent] {
			return false
		}
		return true
	}
	// Section ids are often made from their headings ("how-we-share",
	// "cookies", "social-media", "newsletters"): an element that reads
	// like a document section (a heading, then prose rather than links)
	// is never dropped for its name alone.
	section := sectionLike(nd)
	if strongMatch(nd.attrs) || strongMatch(nd.label) {
		// Cookie and consent prompts have controls; a cookie policy's own
		// sections and tables do not.
		if nd.flags&flInteractive != 0 {
			return true
		}
		return !section && !s.insideContent(i)
	}
	if nd.flags&flInteractive != 0 && nd.textLen < 200 && nd.flags&flHeadingDesc == 0 && !s.insideContent(i) {
		switch nd.tag {
		case atom.Div, atom.Section, atom.Aside, atom.Span, atom.Ul, atom.Ol, atom.Li, atom.Nav, atom.Footer, atom.Header:
			return true // a widget: rating, share, language or search box
		case 0:
			return true
		}
		if nd.flags&flCustom != 0 {
			return true
		}
	}
	if classWords(nd.attrs) || nd.label != "" && classWords(nd.label) {
		// A wrapper named after a header or dialog that holds long prose is a
		// layout container, not boilerplate.
		if section || nd.textLen >= 1500 && nd.linkLen*5 < nd.textLen {
			return false
		}
		return true
	}
	return false
}

// isProbe reports an element that font-loading scripts add to measure a
// font: out of sight, holding no words of any language ("mmMwWLliI0fiflO&1")
// or one word over and over ("word word word ..."). It is never text, so
// it goes however much of the page it is.
func (s *selection) isProbe(i int32) bool {
	n := s.t.n
	if n[i].flags&(flHidden|flAriaHidden|flOffscreen) == 0 || n[i].textLen == 0 {
		return false
	}
	// Probes are small: reading at most a few hundred nodes keeps nested
	// hidden elements linear.
	end := n[i].end
	if end-i > 256 || n[i].textLen > 4096 {
		return false
	}
	var sb strings.Builder
	for k := i + 1; k <= end && sb.Len() < 16384; k++ {
		if n[k].isText {
			sb.WriteString(n[k].text[:min(len(n[k].text), 16384)])
			sb.WriteByte(' ')
		}
	}
	words := strings.Fields(sb.String())
	counts := map[string]int{}
	top, real := 0, 0
	for _, w := range words {
		counts[w]++
		top = max(top, counts[w])
		if wordLike(w) {
			real++
		}
	}
	return real == 0 || len(words) >= 3 && top*2 > len(words)
}

// wordLike reports a token spelled like a word: letters, in lower case
// after the first or all in capitals, with the punctuation prose puts
// around words.
func wordLike(w string) bool {
	w = strings.TrimRight(strings.TrimLeft(w, "(\"'«“‘¿¡"), ".,;:!?)\"'»”’")
	if w == "" {
		return false
	}
	upper, lower := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			if lower > 0 {
				return false // "BESbswy", "mmMwW"
			}
			upper++
		case unicode.IsLower(r):
			if upper > 1 {
				return false
			}
			lower++
		case unicode.IsLetter(r) || r == '-' || r == '\'' || r == '’':
		default:
			return false
		}
	}
	return true
}

// strongByFirst indexes strongWords by their first byte so that one pass
// over a class string finds them all.
var strongByFirst = func() (idx [256][]string) {
	for _, w := range strongWords {
		idx[w[0]] = append(idx[w[0]], w)
	}
	return idx
}()

func containsStrong(s string) bool {
	for i := 0; i < len(s); i++ {
		for _, w := range strongByFirst[s[i]] {
			if strings.HasPrefix(s[i:], w) {
				return true
			}
		}
	}
	return false
}

// strongMatch reports the words of consent and cookie tooling, which mark
// boilerplate however much text the element holds.
func strongMatch(s string) bool {
	for _, w := range consentWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// insideContent reports whether an ancestor of i is a content landmark
// (main, article, section).
func (s *selection) insideContent(i int32) bool { return s.inContent[s.t.n[i].parent] }

func isContentLandmark(nd *node) bool {
	switch nd.tag {
	case atom.Main, atom.Article, atom.Section:
		return true
	}
	return nd.role == "main" || nd.role == "article"
}

func (s *selection) inHeading(i int32) bool {
	n := s.t.n
	for p, k := n[i].parent, 0; p > 0 && k < 4; p, k = n[p].parent, k+1 {
		if isHeading(n[p].tag) || n[p].role == "heading" {
			return true
		}
	}
	return false
}

// keptLen is the text of a subtree that survives the drop rules.
func (s *selection) keptStats() (kept, keptLink []int32) {
	n := s.t.n
	kept = make([]int32, len(n))
	keptLink = make([]int32, len(n))
	for i := len(n) - 1; i >= 1; i-- {
		if s.drop[i] {
			continue
		}
		nd := &n[i]
		if nd.isText {
			kept[i] = nd.textLen
		}
		if nd.tag == atom.A && nd.href != "" {
			keptLink[i] = kept[i]
		}
		kept[nd.parent] += kept[i]
		if n[nd.parent].tag != atom.A {
			keptLink[nd.parent] += keptLink[i]
		}
	}
	return kept, keptLink
}

// onlyChaffBeside reports whether everything under root outside target is
// chaff (short, or links, or prose without a heading): narrowing to target
// then loses no section of the document.
func (s *selection) onlyChaffBeside(root, target int32, kept, keptLink []int32) bool {
	n := s.t.n
	for a := target; a != root && a > 0; a = n[a].parent {
		for c := n[n[a].parent].first; c >= 0; c = n[c].next {
			if c == a || s.drop[c] || kept[c] == 0 {
				continue
			}
			prose := kept[c] - keptLink[c]
			linky := keptLink[c]*2 >= kept[c]
			if !linky && (prose >= 400 || prose >= 80 && n[c].flags&flHeadingDesc != 0) {
				return false
			}
		}
	}
	return true
}

// chooseRoot narrows from the body to the element holding the document:
// an explicit <main> (or role=main) holding most of the prose, or else the
// deepest element that still holds nearly all of the non-link text.
func (s *selection) chooseRoot(body int32) int32 {
	n := s.t.n
	kept, keptLink := s.keptStats()
	prose := func(i int32) int32 { return kept[i] - keptLink[i] }
	total := prose(body)
	if total <= 0 {
		return body
	}
	// explicit main landmarks
	best := int32(-1)
	for i := body + 1; i < int32(len(n)); i++ {
		if s.drop[i] {
			continue
		}
		if n[i].tag == atom.Main || n[i].role == "main" {
			if prose(i)*100 >= total*80 && (best < 0 || prose(i) > prose(best)) {
				best = i
			}
		}
	}
	root := body
	if best >= 0 && s.onlyChaffBeside(root, best, kept, keptLink) {
		root = best
	}
	// An <article> holding nearly all of it is the document; what sits
	// beside it is widgets: ratings, related links, contact boxes.
	art := int32(-1)
	for i := root + 1; i <= n[root].end; i++ {
		if s.drop[i] {
			i = n[i].end
			continue
		}
		if n[i].tag == atom.Article || n[i].role == "article" {
			if prose(i)*100 >= prose(root)*85 && (art < 0 || prose(i) > prose(art)) {
				art = i
			}
		}
	}
	if art >= 0 && s.onlyChaffBeside(root, art, kept, keptLink) {
		root = art
	}
	// Descend while one child holds nearly all the prose and everything
	// beside it looks like navigation: link lists, no headings.
	for {
		var top int32 = -1
		for c := n[root].first; c >= 0; c = n[c].next {
			if s.drop[c] || n[c].isText {
				continue
			}
			if top < 0 || prose(c) > prose(top) {
				top = c
			}
		}
		if top < 0 || prose(top)*100 < total*90 {
			break
		}
		switch n[top].tag {
		case atom.Ul, atom.Ol, atom.Dl, atom.Li, atom.Table, atom.Tbody, atom.Tr, atom.Td, atom.P:
			return root
		}
		for c := n[root].first; c >= 0; c = n[c].next {
			if c == top || s.drop[c] {
				continue
			}
			if n[c].isText && kept[c] > 0 {
				return root
			}
			if kept[c] > 0 && (n[c].flags&flHeadingDesc != 0 || keptLink[c]*2 < kept[c]) {
				return root
			}
		}
		root = top
	}
	return root
}
