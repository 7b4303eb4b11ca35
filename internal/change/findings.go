package change

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// FindingsMoved returns the findings of newF (found in newText) not in oldF
// (found in oldText), and the reverse. Two findings match when they are
// the same case (the ToS;DR case, or the category for a finding of none)
// and either their quotes read the same (a paragraph that only moved), or
// they sit at the same place: the old finding's paragraph, carried into
// the new text through the paragraph diff, holds the new one, and their
// spans overlap in a paragraph that is unchanged, or their quotes share
// most of their words in one that was rewritten. So a quote whose
// boundary moved (a sentence split or joined differently) is neither
// added nor removed. Matching is one to one.
func FindingsMoved(oldText, newText string, oldF, newF []analyze.Finding) (added, removed []analyze.Finding) {
	oldLeft, newLeft := matchByQuote(oldF, newF)
	if len(oldLeft) > 0 && len(newLeft) > 0 {
		oldLeft, newLeft = matchByPlace(oldText, newText, oldF, newF, oldLeft, newLeft)
	}
	for _, i := range newLeft {
		added = append(added, newF[i])
	}
	for _, i := range oldLeft {
		removed = append(removed, oldF[i])
	}
	return added, removed
}

// matchByQuote pairs findings of one case whose quotes read the same, as a
// multiset, and returns the indexes of those left unpaired, in order.
func matchByQuote(oldF, newF []analyze.Finding) (oldLeft, newLeft []int) {
	seen := map[string][]int{}
	for i, f := range oldF {
		k := caseOf(f) + "\x00" + quoteWords(f)
		seen[k] = append(seen[k], i)
	}
	paired := make([]bool, len(oldF))
	for j, f := range newF {
		k := caseOf(f) + "\x00" + quoteWords(f)
		if l := seen[k]; len(l) > 0 {
			paired[l[0]], seen[k] = true, l[1:]
			continue
		}
		newLeft = append(newLeft, j)
	}
	for i := range oldF {
		if !paired[i] {
			oldLeft = append(oldLeft, i)
		}
	}
	return oldLeft, newLeft
}

// matchByPlace pairs the findings left by matchByQuote that sit at the
// same place (see FindingsMoved). When the paragraph diff exceeds its
// bound nothing more is paired.
func matchByPlace(oldText, newText string, oldF, newF []analyze.Finding, oldLeft, newLeft []int) ([]int, []int) {
	oldL, oldSpans := paragraphSpans(oldText)
	newL, newSpans := paragraphSpans(newText)
	a, b := number(oldL, newL)
	df := &differ{ctx: context.Background(), work: maxWork}
	rs := df.diff(a, b)
	if df.err != nil {
		return oldLeft, newLeft
	}
	// to[i] is where the old paragraph i went: one new paragraph when it is
	// unchanged (same), else the range of the rewritten block that took
	// its place (lo..hi, hi exclusive).
	type place struct {
		lo, hi int
		same   bool
	}
	to := make([]place, len(a))
	i, j := 0, 0
	for k := 0; k < len(rs); k++ {
		if rs[k].kind == equal {
			for n := 0; n < rs[k].n; n++ {
				to[i+n] = place{j + n, j + n + 1, true}
			}
			i, j = i+rs[k].n, j+rs[k].n
			continue
		}
		// A block of deletions and insertions between two unchanged runs.
		di, dj := 0, 0
		for ; k < len(rs) && rs[k].kind != equal; k++ {
			x, y := rs[k].advance()
			di, dj = di+x, dj+y
		}
		k--
		for n := 0; n < di; n++ {
			to[i+n] = place{j, j + dj, false}
		}
		i, j = i+di, j+dj
	}
	newUsed := make([]bool, len(newF))
	var oldRest []int
	for _, oi := range oldLeft {
		f := oldF[oi]
		p := paragraphAt(oldSpans, f.Start)
		if p < 0 {
			oldRest = append(oldRest, oi)
			continue
		}
		pl := to[p]
		match := -1
		for _, nj := range newLeft {
			g := newF[nj]
			if newUsed[nj] || caseOf(g) != caseOf(f) {
				continue
			}
			q := paragraphAt(newSpans, g.Start)
			if q < pl.lo || q >= pl.hi {
				continue
			}
			if pl.same {
				// Offsets within the one paragraph, unchanged in both texts.
				fs, fe := f.Start-oldSpans[p].start, f.End-oldSpans[p].start
				gs, ge := g.Start-newSpans[q].start, g.End-newSpans[q].start
				if fs < ge && gs < fe {
					match = nj
					break
				}
			} else if wordsShared(f.Quote, g.Quote) {
				match = nj
				break
			}
		}
		if match < 0 {
			oldRest = append(oldRest, oi)
			continue
		}
		newUsed[match] = true
	}
	var newRest []int
	for _, nj := range newLeft {
		if !newUsed[nj] {
			newRest = append(newRest, nj)
		}
	}
	return oldRest, newRest
}

// span is a paragraph's place in a text, in code points, end exclusive.
type span struct{ start, end int }

// paragraphSpans is Lines with where each paragraph sits in text.
func paragraphSpans(text string) ([]string, []span) {
	var lines []string
	var spans []span
	at := 0
	for _, p := range strings.Split(text, "\n\n") {
		n := utf8.RuneCountInString(p)
		if l := extract.NormalizeForHash(strings.ReplaceAll(p, "\r\n", "\n")); l != "" {
			lines = append(lines, l)
			spans = append(spans, span{at, at + n})
		}
		at += n + 2
	}
	return lines, spans
}

// paragraphAt is the index of the paragraph holding offset, -1 for none.
func paragraphAt(spans []span, offset int) int {
	for i, s := range spans {
		if offset >= s.start && offset < s.end {
			return i
		}
	}
	return -1
}

// caseOf is what a finding is an instance of: its ToS;DR case, or its
// category when it has none.
func caseOf(f analyze.Finding) string {
	if f.Case != "" {
		return "case:" + f.Case
	}
	return "category:" + f.Category
}

// quoteWords is a quote's words, lower-cased, space-separated.
func quoteWords(f analyze.Finding) string {
	return strings.Join(words(f.Quote), " ")
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordsShared reports whether two quotes share at least half of the
// shorter one's distinct words.
func wordsShared(a, b string) bool {
	wa, wb := map[string]bool{}, map[string]bool{}
	for _, w := range words(a) {
		wa[w] = true
	}
	for _, w := range words(b) {
		wb[w] = true
	}
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return len(wa) > 0 && 2*shared >= len(wa)
}
