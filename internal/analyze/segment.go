package analyze

import (
	"strings"
	"unicode"
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
	return segment([]rune(text))
}

func segment(rs []rune) []Span {
	var out []Span
	for _, b := range blocks(rs) {
		out = splitBlock(rs, b, out)
	}
	return out
}

// lines returns the line spans (without the line break).
func lines(rs []rune) []Span {
	var ls []Span
	s := 0
	for i, r := range rs {
		if r == '\n' || r == '\u2028' || r == '\u2029' {
			ls = append(ls, Span{s, i})
			s = i + 1
		}
	}
	return append(ls, Span{s, len(rs)})
}

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

func blocks(rs []rune) []Span {
	var out []Span
	cur := Span{-1, -1}
	prevEnds, prevShort := true, false
	for _, l := range lines(rs) {
		t := trimSpan(rs, l)
		if t.Start == t.End {
			if cur.Start >= 0 {
				out = append(out, cur)
				cur = Span{-1, -1}
			}
			prevEnds, prevShort = true, false
			continue
		}
		if cur.Start >= 0 && (prevEnds && !(prevShort && startsLower(rs, t)) || startsListItem(rs, t)) {
			out = append(out, cur)
			cur = Span{-1, -1}
		}
		if cur.Start < 0 {
			cur = t
		} else {
			cur.End = t.End
		}
		prevEnds, prevShort = endsLine(rs, t)
	}
	if cur.Start >= 0 {
		out = append(out, cur)
	}
	return out
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
