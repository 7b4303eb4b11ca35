package analyze

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations keep their final period when tokenising (as CoreNLP does) and
// never end a sentence in the segmenter.
var abbreviations = map[string]bool{
	"inc": true, "ltd": true, "co": true, "corp": true, "llc": true, "plc": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "no": true, "nos": true, "vs": true, "v": true, "cf": true, "al": true,
	"art": true, "sec": true, "para": true, "fig": true, "approx": true, "dept": true,
	"e.g": true, "i.e": true, "u.s": true, "u.k": true, "etc": true, "jan": true, "feb": true,
	"mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
	"oct": true, "nov": true, "dec": true, "b.v": true, "n.v": true, "s.a": true, "gmbh": true,
	"pty": true, "u.s.a": true, "p.o": true, "ca": true, "viz": true,
}

// Normalize turns raw text into the lower-cased, CoreNLP-like token sequence the
// clause classifier was trained on: punctuation split off, "don't" -> "do n't",
// "'s" separated, quotes dropped, digits mapped to 0. It is idempotent on the
// training data's own tokenisation.
func Normalize(s string) []string {
	// about a token a word, and one in four more for punctuation
	n := strings.Count(s, " ")
	return appendTokens(make([]string, 0, n+n/4+4), s)
}

func isQuoteRune(r rune) bool {
	switch r {
	case '"', '`', '\u201c', '\u201d', '\u201e', '\u00ab', '\u00bb', '\u2018', '\u2019', '\'':
		return true
	}
	return false
}

func isOpenPunct(r rune) bool {
	switch r {
	case '(', '[', '{', '\u00a1', '\u00bf':
		return true
	}
	return isQuoteRune(r)
}

func isClosePunct(r rune) bool {
	switch r {
	case ')', ']', '}', ',', ';', ':', '.', '!', '?', '\u2026':
		return true
	}
	return isQuoteRune(r)
}

// appendTokens appends the normalised tokens of s to dst. ASCII, most of
// any text, is read a byte at a time, as the runes' reading would read it.
func appendTokens(dst []string, s string) []string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case c >= '0' && c <= '9':
				c = '0'
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\u2019' || r == '\u2018':
			r = '\''
		case r == '\u201c' || r == '\u201d':
			r = '"'
		case r == '\u2013' || r == '\u2014':
			r = '-'
		case unicode.IsDigit(r):
			r = '0'
		default:
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	low := b.String()
	start := -1
	for i := 0; i < len(low); {
		var space bool
		n := 1
		if c := low[i]; c < utf8.RuneSelf {
			space = c == ' ' || c >= '\t' && c <= '\r'
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(low[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				dst = appendChunk(dst, low[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		dst = appendChunk(dst, low[start:])
	}
	return dst
}

func appendChunk(dst []string, c string) []string {
	// CoreNLP's escaped brackets in the training data.
	switch c {
	case "-lsb-", "-rsb-", "-lcb-", "-rcb-", "``", "''":
		return dst
	case "-lrb-":
		return append(dst, "(")
	case "-rrb-":
		return append(dst, ")")
	case "n't", "'s", "'re", "'ll", "'ve", "'d", "'m":
		return append(dst, c)
	}
	// leading punctuation
	for c != "" {
		r, n := utf8.DecodeRuneInString(c)
		if !isOpenPunct(r) {
			break
		}
		if !isQuoteRune(r) {
			dst = append(dst, c[:n])
		}
		c = c[n:]
	}
	// trailing punctuation, collected in reverse
	var trail [8]string
	nt := 0
	for c != "" {
		r, n := utf8.DecodeLastRuneInString(c)
		if !isClosePunct(r) {
			break
		}
		if r == '.' {
			core := c[:len(c)-n]
			// keep the period of abbreviations and dotted words (e.g. u.s. 1.2.)
			if abbreviations[core] || (strings.Contains(core, ".") && !strings.HasSuffix(core, ".")) {
				break
			}
			if len(core) == 1 && core[0] >= 'a' && core[0] <= 'z' { // list marker "a."
				break
			}
		}
		if r == '\'' && len(c) > n && c[len(c)-n-1] == 's' { // plural possessive users'
			c = c[:len(c)-n]
			continue
		}
		if !isQuoteRune(r) && nt < len(trail) {
			trail[nt] = c[len(c)-n:]
			nt++
		}
		c = c[:len(c)-n]
	}
	if c != "" {
		dst = appendCore(dst, c)
	}
	for i := nt - 1; i >= 0; i-- {
		dst = append(dst, trail[i])
	}
	return dst
}

func appendCore(dst []string, c string) []string {
	// clitics
	if len(c) > 3 && strings.HasSuffix(c, "n't") {
		return append(dst, c[:len(c)-3], "n't")
	}
	if i := strings.LastIndexByte(c, '\''); i > 0 {
		switch c[i:] {
		case "'s", "'re", "'ll", "'ve", "'d", "'m":
			return append(dst, c[:i], c[i:])
		}
	}
	// internal commas or semicolons not between digits: split
	if strings.IndexByte(c, ',') >= 0 || strings.IndexByte(c, ';') >= 0 {
		for {
			i := strings.IndexAny(c, ",;")
			if i < 0 {
				break
			}
			if i > 0 && i+1 < len(c) && c[i-1] == '0' && c[i+1] == '0' {
				// 1,000 stays one token
				j := strings.IndexAny(c[i+1:], ",;")
				if j < 0 {
					break
				}
				// fall back to simple split for the rest
				dst = append(dst, c[:i+1+j])
				dst = append(dst, c[i+1+j:i+2+j])
				c = c[i+2+j:]
				continue
			}
			if i > 0 {
				dst = append(dst, c[:i])
			}
			dst = append(dst, c[i:i+1])
			c = c[i+1:]
		}
		if c == "" {
			return dst
		}
	}
	return append(dst, c)
}
