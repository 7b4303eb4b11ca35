package analyze

import (
	"math"
	"unicode"
)

// Confidence levels of a grade.
const (
	ConfidenceLow    = "low"
	ConfidenceMedium = "medium"
	ConfidenceHigh   = "high"
)

// The bounds of the grade's confidence: below minWords read as clauses a text
// is too short to grade (a snippet, a single clause), below
// minCoverage of its text read as clauses it is mostly something else (a
// price list, navigation, a table); a full document reaches fullWords
// (about four minutes of reading) and fullCoverage.
const (
	minWords     = 150
	fullWords    = 1000
	minCoverage  = 0.5
	fullCoverage = 0.8
)

// coverage is the share of the text's letters and digits that lie in
// sentences read as clauses (not headings or fragments), rounded to 0.01,
// and the number of words in those sentences.
func coverage(d *doc) (float64, int) {
	total := 0
	for _, r := range d.text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			total++
		}
	}
	read, words := 0, 0
	var s []rune
	for i := range d.spans {
		s = d.appendRunes(s[:0], i)
		if isHeading(s) {
			continue
		}
		inWord := false
		for _, r := range s {
			w := unicode.IsLetter(r) || unicode.IsDigit(r)
			if w {
				read++
				if !inWord {
					words++
				}
			}
			inWord = w
		}
	}
	if total == 0 {
		return 0, 0
	}
	return math.Round(float64(read)/float64(total)*100) / 100, words
}

// minEvidence is the fewest counted cases a letter can rest on with any
// confidence.
const minEvidence = 3

// confidence says how far the grade can be trusted: low for a short text,
// a document that is neither terms nor a privacy policy, one mostly not
// read as clauses, a letter resting on fewer than minEvidence cases or on
// categories' default cases alone (no ToS;DR case), or a balance whose
// spread (one standard deviation either way) reaches past a cut into
// another letter; high for a full legal document read almost whole;
// medium in between.
func confidence(docType string, cov float64, words int, v Verdict, cuts Cuts) string {
	defaults := true
	for _, e := range v.Evidence {
		defaults = defaults && IsDefaultCase(e.Title)
	}
	switch {
	case words < minWords || docType == "other" || cov < minCoverage:
		return ConfidenceLow
	case len(v.Evidence) < minEvidence || defaults || spansLetters(v, cuts):
		return ConfidenceLow
	case words < fullWords || cov < fullCoverage:
		return ConfidenceMedium
	}
	return ConfidenceHigh
}

// spansLetters reports whether the balance, one spread either way, crosses
// a cut that would change the letter (a cut a blocker overrides does not).
func spansLetters(v Verdict, cuts Cuts) bool {
	lo, hi := v.Balance-v.Spread, v.Balance+v.Spread
	low, high := v, v
	low.Balance, high.Balance = lo, hi
	return low.letter(cuts) != high.letter(cuts)
}
