// Package change says what changed between two extracted texts of a
// document: a unified diff of their paragraphs, the analysis findings that
// appeared or went away, and a one-sentence summary. It is pure.
package change

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// contextLines is how many unchanged lines a hunk shows around a change.
const contextLines = 3

// Diff is the line difference of two texts, one paragraph a line.
type Diff struct {
	Unified string // unified diff, 3 lines of context; "" when nothing changed or Summarised
	Added   int    // lines only in the new text
	Removed int    // lines only in the old text
	// Changed counts changed paragraphs: a paragraph rewritten in place
	// counts once, not as one removed and one added.
	Changed int
	// Summarised: the texts differ too much to diff line by line within
	// the bound. Unified is then empty, and Added and Removed count every
	// line from the first difference to the last.
	Summarised bool
}

// Lines splits an extracted text into its paragraphs (blank-line separated),
// each one line, normalized as the content hash is, so that what the hash
// ignores never shows in a diff.
func Lines(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = extract.NormalizeForHash(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Compare diffs two texts paragraph by paragraph, without cancellation.
func Compare(oldText, newText string) Diff {
	d, _ := CompareContext(context.Background(), oldText, newText)
	return d
}

// CompareContext diffs two texts paragraph by paragraph. Its work is
// bounded whatever the texts: past the bound (see maxWork) the result is
// Summarised. The error is ctx's, when it ended first.
func CompareContext(ctx context.Context, oldText, newText string) (Diff, error) {
	oldL, newL := Lines(oldText), Lines(newText)
	a, b := number(oldL, newL)
	df := &differ{ctx: ctx, work: maxWork}
	rs := df.diff(a, b)
	if errors.Is(df.err, errTooLarge) {
		pre := commonPrefix(a, b)
		suf := commonSuffix(a[pre:], b[pre:])
		removed, added := len(a)-pre-suf, len(b)-pre-suf
		return Diff{Added: added, Removed: removed, Changed: max(added, removed), Summarised: true}, nil
	}
	if df.err != nil {
		return Diff{}, df.err
	}
	var d Diff
	dels, adds := 0, 0
	for _, r := range append(rs, run{kind: equal, n: 1}) {
		switch {
		case r.kind == del:
			d.Removed += r.n
			dels += r.n
		case r.kind == ins:
			d.Added += r.n
			adds += r.n
		case r.n > 0:
			d.Changed += max(dels, adds)
			dels, adds = 0, 0
		}
	}
	if d.Added+d.Removed > 0 {
		d.Unified = unified(rs, oldL, newL)
	}
	return d, nil
}

// number gives each distinct line a number, the same in both texts.
func number(oldL, newL []string) (a, b []int) {
	ids := make(map[string]int, len(oldL))
	num := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	return num(oldL), num(newL)
}

// prefix marks a unified diff's line: kept, removed or added.
var prefix = [...]byte{equal: ' ', del: '-', ins: '+'}

// unified writes the diff rs of oldL and newL as hunks with context lines
// around each change; changes closer than twice the context share a hunk.
func unified(rs []run, oldL, newL []string) string {
	// The diff's lines are numbered in order; at[i] is where rs[i] starts
	// among them, old[i] and new[i] where it starts in each text.
	at, old, nw := make([]int, len(rs)+1), make([]int, len(rs)+1), make([]int, len(rs)+1)
	for i, r := range rs {
		da, db := r.advance()
		at[i+1], old[i+1], nw[i+1] = at[i]+r.n, old[i]+da, nw[i]+db
	}
	total := at[len(rs)]
	// runAt is the run holding the diff's line k (len(rs) past the end).
	runAt := func(k int) int { return sort.Search(len(rs), func(i int) bool { return at[i+1] > k }) }
	// before is how many lines of each text come before the diff's line k.
	before := func(k int) (int, int) {
		i := runAt(k)
		if i == len(rs) {
			return old[i], nw[i]
		}
		da, db := rs[i].advance()
		return old[i] + min(k-at[i], da), nw[i] + min(k-at[i], db)
	}
	changes := func(r run) bool { return r.kind != equal && r.n > 0 }
	var sb strings.Builder
	sb.WriteString("--- previous\n+++ current\n")
	for i := 0; i < len(rs); i++ {
		if !changes(rs[i]) {
			continue
		}
		start, end := max(at[i]-contextLines, 0), at[i+1] // end: one past the hunk's last change
		for j := i + 1; j < len(rs) && at[j] < end+2*contextLines+1; j++ {
			if changes(rs[j]) {
				end, i = at[j+1], j
			}
		}
		stop := min(end+contextLines, total)
		o1, n1 := before(start)
		o2, n2 := before(stop)
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkSpan(o1, o2-o1), hunkSpan(n1, n2-n1))
		for j := runAt(start); j < len(rs) && at[j] < stop; j++ {
			for k := max(at[j], start); k < min(at[j+1], stop); k++ {
				var line string
				if rs[j].kind == ins {
					line = newL[nw[j]+k-at[j]]
				} else {
					line = oldL[old[j]+k-at[j]]
				}
				sb.WriteByte(prefix[rs[j].kind])
				sb.WriteString(line)
				sb.WriteByte('\n')
			}
		}
	}
	return sb.String()
}

// hunkSpan is a hunk range: 1-based start and length; an empty range names the
// line before it, as diff(1) writes it.
func hunkSpan(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	if n == 1 {
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// Findings returns the findings of newF not in oldF (added) and the reverse
// (removed), by case and quote alone, as a multiset, so a paragraph that
// only moved is neither added nor removed. FindingsMoved, given the texts,
// also pairs findings whose quote boundary moved.
func Findings(oldF, newF []analyze.Finding) (added, removed []analyze.Finding) {
	oldLeft, newLeft := matchByQuote(oldF, newF)
	for _, i := range newLeft {
		added = append(added, newF[i])
	}
	for _, i := range oldLeft {
		removed = append(removed, oldF[i])
	}
	return added, removed
}

// Summary is one plain sentence: "2 paragraphs changed; added: disputes go
// to private arbitration (blocker)". A summarised diff says "up to N
// paragraphs changed (too many differences to show line by line)".
func Summary(d Diff, added, removed []analyze.Finding) string {
	s := fmt.Sprintf("%d paragraphs changed", d.Changed)
	if d.Changed == 1 {
		s = "1 paragraph changed"
	}
	if d.Summarised {
		s = fmt.Sprintf("up to %d paragraphs changed (too many differences to show line by line)", d.Changed)
	}
	if l := titles(added); l != "" {
		s += "; added: " + l
	}
	if l := titles(removed); l != "" {
		s += "; removed: " + l
	}
	return s
}

// titles lists distinct finding titles with their severity, at most three.
func titles(fs []analyze.Finding) string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fs {
		t := lowerFirst(f.Title) + " (" + f.Severity + ")"
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("%d more", len(out)-3))
	}
	return strings.Join(out, ", ")
}

func lowerFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToLower(r)) + s[i+len(string(r)):]
	}
	return s
}
