package analyze

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// runeTokens is appendTokens as it read every rune, before its ASCII
// path: the two must agree.
func runeTokens(s string) []string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\u2019' || r == '\u2018':
			r = '\''
		case r == '\u201c' || r == '\u201d':
			r = '"'
		case r == '\u2013' || r == '\u2014':
			r = '-'
		case r >= '0' && r <= '9':
			r = '0'
		case unicode.IsDigit(r):
			r = '0'
		default:
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	low := b.String()
	var dst []string
	start := -1
	for i, r := range low {
		if unicode.IsSpace(r) {
			if start >= 0 {
				dst = appendChunk(dst, low[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = appendChunk(dst, low[start:])
	}
	return dst
}

func TestNormalizeReadsASCIIAsRunes(t *testing.T) {
	texts := patternTexts(t)
	texts = append(texts, "Ünïcode ÀB\u00a0c\u0085d\u2028e \xff\xfeX ١٢٣ 12,5 DON’T “Quoted” – dash\v\f\rend", "\t\n", "ＡＢＣ ǅ İstanbul")
	for _, s := range texts {
		if got, want := Normalize(s), runeTokens(s); !slices.Equal(got, want) {
			t.Fatalf("Normalize(%q) = %q, want %q", s, got, want)
		}
	}
}
