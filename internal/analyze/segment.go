package analyze

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a half-open range of Unicode code point offsets.
type Span struct{ Start, End int }

// Sentences splits extracted text into sentences and returns their code point
// offsets, trimmed of surrounding white space. Blocks are separated by blank
// lines, by lines that end a sentence, and before headings and list items;
// other single line breaks are treated as wrapping. Inside a block a sentence
// ends at . ! ? (or 。！？) followed by space and a plausible sentence start,
// except after abbreviations ("e.g.", "Inc."), initials and section numbers.
func Sentences(text string) []Span {
	return newDoc(text).spans
}

// doc is a text cut into sentences. The text is held once, as given: the
// sentences are offsets into it, and only a line or a block at a time, or
// one sentence, is ever read as code points (a []rune of the whole text
// would be four times its size, held for the whole analysis).
type doc struct {
	text   string
	spans  []Span // each sentence's code point offsets (what findings report)
	bytes  []Span // the same sentences' byte offsets into text
	blocks []block
}

// block is a run of lines read as one (see blocks).
type block struct {
	runes, bytes Span
	// item: it starts with a list marker; joined: no empty line separates
	// it from the block before (paragraphs groups lists by both).
	item, joined bool
}

func newDoc(text string) *doc {
	d := &doc{text: text, blocks: blocks(text)}
	var br []rune
	var local []Span
	for k, b := range d.blocks {
		br = appendRunes(br[:0], text[b.bytes.Start:b.bytes.End])
		d.blocks[k].item = startsListItem(br, Span{0, len(br)})
		local = splitBlock(br, Span{0, len(br)}, local[:0])
		for _, sp := range local {
			d.spans = append(d.spans, Span{b.runes.Start + sp.Start, b.runes.Start + sp.End})
		}
	}
	d.bytes = byteSpans(text, d.spans)
	return d
}

// appendRunes appends sentence i's code points to dst (a buffer reused
// across sentences).
func (d *doc) appendRunes(dst []rune, i int) []rune {
	return appendRunes(dst, d.text[d.bytes[i].Start:d.bytes[i].End])
}

// head appends the first cap(buf) code points of sentence i (all of a
// shorter one) to buf[:0]; a caller's array keeps it off the heap.
func (d *doc) head(i int, buf []rune) []rune {
	buf = buf[:0]
	for _, r := range d.text[d.bytes[i].Start:d.bytes[i].End] {
		if len(buf) == cap(buf) {
			break
		}
		buf = append(buf, r)
	}
	return buf
}

// last is sentence i's last code point (U+FFFD for an invalid byte, as
// []rune reads it).
func (d *doc) last(i int) rune {
	r, _ := utf8.DecodeLastRuneInString(d.text[d.bytes[i].Start:d.bytes[i].End])
	return r
}

// sentence is sentence i, spelled as between says.
func (d *doc) sentence(i int) string { return d.between(i, i) }

// between is the text from sentence i's start to sentence j's end, as
// string([]rune(text)[...]) spells it: each invalid UTF-8 byte a U+FFFD,
// as a JSON client receives the text. Valid text is not copied.
func (d *doc) between(i, j int) string {
	s := d.text[d.bytes[i].Start:d.bytes[j].End]
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// appendRunes appends the code points of s to dst, as []rune(s) decodes
// them (each invalid byte a U+FFFD).
func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// byteSpans turns sorted, non-overlapping code point spans of text into
// byte spans, in one pass over the text.
func byteSpans(text string, spans []Span) []Span {
	out := make([]Span, len(spans))
	r, b := 0, 0
	at := func(pos int) int {
		for ; r < pos; r++ {
			_, w := utf8.DecodeRuneInString(text[b:])
			b += w
		}
		return b
	}
	for i, sp := range spans {
		out[i] = Span{at(sp.Start), at(sp.End)}
	}
	return out
}

// isBreak: a line ends at a line feed or a Unicode line or paragraph
// separator.
func isBreak(r rune) bool { return r == '\n' || r == '\u2028' || r == '\u2029' }

func trimSpan(rs []rune, sp Span) Span {
	for sp.Start < sp.End && isSpaceRune(rs[sp.Start]) {
		sp.Start++
	}
	for sp.End > sp.Start && isSpaceRune(rs[sp.End-1]) {
		sp.End--
	}
	return sp
}

func isSpaceRune(r rune) bool {
	return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff' || unicode.Is(unicode.Cc, r)
}

// blocks cuts the text into blocks of lines, each line read as code
// points on its own.
func blocks(text string) []block {
	var out []block
	var cur block
	open := false
	prevEnds, prevShort := true, false
	newlines := 0 // line feeds since the last line with text
	var lr []rune
	r0, b0 := 0, 0 // the line's first code point and byte
	for {
		end, brk := len(text), 0
		for i, r := range text[b0:] {
			if isBreak(r) {
				end, brk = b0+i, utf8.RuneLen(r)
				break
			}
		}
		lr = appendRunes(lr[:0], text[b0:end])
		t := trimSpan(lr, Span{0, len(lr)})
		if t.Start == t.End {
			if open {
				out = append(out, cur)
				open = false
			}
			prevEnds, prevShort = true, false
		} else {
			if open && (prevEnds && !(prevShort && startsLower(lr, t)) || startsListItem(lr, t)) {
				out = append(out, cur)
				open = false
			}
			// The white space trimmed is valid UTF-8: its runes' lengths
			// are its bytes (an invalid byte is a U+FFFD, never space).
			tb := Span{b0 + runesLen(lr[:t.Start]), end - runesLen(lr[t.End:])}
			if !open {
				cur = block{runes: Span{r0 + t.Start, r0 + t.End}, bytes: tb, joined: len(out) > 0 && newlines < 2}
				open = true
			} else {
				cur.runes.End, cur.bytes.End = r0+t.End, tb.End
			}
			prevEnds, prevShort = endsLine(lr, t)
			newlines = 0
		}
		if brk == 0 {
			break
		}
		if text[end] == '\n' {
			newlines++
		}
		r0, b0 = r0+len(lr)+1, end+brk
	}
	if open {
		out = append(out, cur)
	}
	return out
}

// runesLen is the UTF-8 length of valid code points.
func runesLen(rs []rune) int {
	n := 0
	for _, r := range rs {
		n += utf8.RuneLen(r)
	}
	return n
}

// endsLine reports whether a line ends its block: terminal punctuation, a
// colon or semicolon, or a short line without punctuation (a heading).
// The second result says the decision rests only on the line being short,
// which a next line starting in lower case overrides (it was wrapped).
func endsLine(rs []rune, t Span) (ends, short bool) {
	e := t.End
	for e > t.Start && isCloser(rs[e-1]) {
		e--
	}
	if e > t.Start {
		switch rs[e-1] {
		case '.', '!', '?', ':', ';', '。', '！', '？':
			return true, false
		}
	}
	short = t.End-t.Start < 60
	return short, short
}

func startsLower(rs []rune, t Span) bool {
	return t.Start < t.End && unicode.IsLower(rs[t.Start])
}

func isCloser(r rune) bool {
	switch r {
	case ')', ']', '"', '\'', '\u201d', '\u2019', '\u00bb', '*', '_':
		return true
	}
	return false
}

func isOpener(r rune) bool {
	switch r {
	case '(', '[', '"', '\'', '\u201c', '\u2018', '\u00ab', '\u00bf', '\u00a1':
		return true
	}
	return false
}

// startsListItem: "- ", "* ", "• ", "1. ", "1) ", "(a) ", "a) ", "# ", "Section 2".
func startsListItem(rs []rune, t Span) bool {
	i := t.Start
	if i >= t.End {
		return false
	}
	switch rs[i] {
	case '-', '*', '•', '·', '–', '—', '▪', '◦', '#', '§', '>', '|':
		return true
	case '(':
		j := i + 1
		for j < t.End && j-i <= 5 && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
			j++
		}
		return j < t.End && rs[j] == ')' && j > i+1
	}
	j := i
	for j < t.End && j-i <= 8 && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
		j++
	}
	if j > i && j < t.End && (rs[j-1] == '.' || rs[j] == ')' || rs[j] == ' ') {
		return true
	}
	if j == i && unicode.IsLetter(rs[i]) && i+1 < t.End && rs[i+1] == ')' {
		return true
	}
	return false
}

func splitBlock(rs []rune, b Span, out []Span) []Span {
	s := b.Start
	for i := b.Start; i < b.End; i++ {
		r := rs[i]
		switch r {
		case '。', '！', '？':
			out = appendSentence(rs, Span{s, i + 1}, out)
			s = i + 1
			continue
		case '.', '!', '?', '…':
		default:
			continue
		}
		j := i + 1
		for j < b.End && (rs[j] == '.' || rs[j] == '!' || rs[j] == '?') {
			j++
		}
		for j < b.End && isCloser(rs[j]) {
			j++
		}
		if j >= b.End || !isSpaceRune(rs[j]) {
			i = j - 1
			continue
		}
		k := j
		for k < b.End && isSpaceRune(rs[k]) {
			k++
		}
		if k >= b.End {
			break
		}
		if !startsSentence(rs[k]) {
			i = j - 1
			continue
		}
		if r == '.' && !periodEnds(rs, s, i) {
			i = j - 1
			continue
		}
		out = appendSentence(rs, Span{s, j}, out)
		s = k
		i = k - 1
	}
	return appendSentence(rs, Span{s, b.End}, out)
}

// startsSentence: what may follow a sentence's end and its space. Symbols
// count ("... Zürich. 👨‍👩‍👧 We may sell ..."): an emoji between sentences
// must not glue them into one quote.
func startsSentence(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsDigit(r) || isOpener(r) || unicode.Is(unicode.Lo, r) ||
		unicode.Is(unicode.So, r) || r == '•' || r == '-' || r == '*' || r == '§'
}

// periodEnds decides whether the period at i ends the sentence started at s.
func periodEnds(rs []rune, s, i int) bool {
	w := i
	for w > s && !isSpaceRune(rs[w-1]) && !isOpener(rs[w-1]) {
		w--
	}
	word := strings.ToLower(string(rs[w:i]))
	if word == "" {
		return true
	}
	if abbreviations[word] {
		return false
	}
	if strings.Contains(word, ".") { // e.g, u.s, 1.2
		return false
	}
	letters := 0
	for _, r := range word {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 1 && len([]rune(word)) == 1 { // initials, "a." list markers
		return false
	}
	// "1." or "IV." alone at the start of a sentence: a section number
	if w == s && (isNumber(word) || isRoman(word)) {
		return false
	}
	return true
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) && r != '.' {
			return false
		}
	}
	return w != ""
}

func isRoman(w string) bool {
	for _, r := range w {
		if !strings.ContainsRune("ivxlc", r) {
			return false
		}
	}
	return w != "" && len(w) <= 5
}

func appendSentence(rs []rune, sp Span, out []Span) []Span {
	sp = trimSpan(rs, sp)
	for i := sp.Start; i < sp.End; i++ {
		if unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]) {
			return append(out, sp)
		}
	}
	return out
}
