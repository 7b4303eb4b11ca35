package analyze

import (
	"math"
	"strings"
	"unicode"
)

// Readability of a document.
type Readability struct {
	FleschKincaidGrade float64 `json:"fleschKincaidGrade"`
	ReadingMinutes     float64 `json:"readingMinutes"`
}

// wordsPerMinute is the average adult silent reading speed for English
// non-fiction (Brysbaert 2019).
const wordsPerMinute = 238

// readability computes the Flesch-Kincaid grade level
// 0.39*(words/sentences) + 11.8*(syllables/words) - 15.59
// and the reading time at 238 words per minute, both rounded to 0.1.
func readability(d *doc) Readability {
	words, syll := 0, 0
	sentences := 0
	var rs []rune
	for _, sp := range d.bytes {
		rs = appendRunes(rs[:0], d.text[sp.Start:sp.End])
		n := 0
		inWord := false
		start := 0
		for i := 0; i <= len(rs); i++ {
			isW := i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]) || (inWord && (rs[i] == '\'' || rs[i] == '\u2019')))
			if isW && !inWord {
				inWord, start = true, i
			} else if !isW && inWord {
				inWord = false
				n++
				syll += Syllables(string(rs[start:i]))
			}
		}
		if n > 0 {
			words += n
			sentences++
		}
	}
	if words == 0 {
		return Readability{}
	}
	fk := 0.39*float64(words)/float64(sentences) + 11.8*float64(syll)/float64(words) - 15.59
	fk = math.Max(fk, 0)
	return Readability{
		FleschKincaidGrade: math.Round(fk*10) / 10,
		ReadingMinutes:     math.Max(0.1, math.Round(float64(words)/wordsPerMinute*10)/10),
	}
}

func isVowel(r rune) bool { return strings.ContainsRune("aeiouy", r) }

// Syllables estimates the syllables of an English word: groups of vowels,
// minus a silent final "e" (but not "-le"), "-es"/"-ed" endings that are
// not pronounced, plus common exceptions; at least one per word. Numbers and
// non-Latin words count one syllable per word.
func Syllables(word string) int {
	w := []rune(strings.ToLower(strings.TrimRight(word, "'\u2019")))
	if len(w) == 0 {
		return 0
	}
	latin := false
	for _, r := range w {
		if r >= 'a' && r <= 'z' {
			latin = true
			break
		}
	}
	if !latin {
		return 1
	}
	if len(w) <= 3 {
		return 1
	}
	// strip possessive
	if n := len(w); n > 2 && w[n-2] == '\'' && w[n-1] == 's' {
		w = w[:n-2]
	}
	count := 0
	prev := false
	for i, r := range w {
		v := isVowel(r)
		if r == 'y' && i == 0 {
			v = false
		}
		if v && !prev {
			count++
		}
		prev = v
	}
	n := len(w)
	s := string(w)
	switch {
	case strings.HasSuffix(s, "le") && n > 2 && !isVowel(w[n-3]):
		// "table": the final -le is its own syllable, already counted by 'e'
	case strings.HasSuffix(s, "e") && !strings.HasSuffix(s, "ee") && !strings.HasSuffix(s, "ye"):
		count--
	case n >= 3 && (strings.HasSuffix(s, "es") || strings.HasSuffix(s, "ed")):
		// "-ted", "-ded", "-ses", "-zes", "-ces", "-ges", "-xes", "-shes", "-ches" are pronounced
		c := w[n-3]
		pron := (s[n-1] == 'd' && (c == 't' || c == 'd')) ||
			(s[n-1] == 's' && (c == 's' || c == 'z' || c == 'c' || c == 'g' || c == 'x' || strings.HasSuffix(s, "shes") || strings.HasSuffix(s, "ches")))
		if !pron && !isVowel(c) {
			count--
		}
	}
	// vowel pairs usually split in two syllables
	for _, p := range []string{"ia", "io", "eo", "ua", "iu"} {
		if strings.Contains(s, p) && !strings.Contains(s, "tion") && !strings.Contains(s, "sion") && !strings.Contains(s, "cia") && !strings.Contains(s, "gio") {
			count++
			break
		}
	}
	if count < 1 {
		count = 1
	}
	return count
}
