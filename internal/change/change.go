// Package change says what changed between two extracted texts of a
// document: a unified diff of their paragraphs, the analysis findings that
// appeared or went away, and a one-sentence summary. It is pure.
package change

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// contextLines is how many unchanged lines a hunk shows around a change.
const contextLines = 3

// Diff is the line difference of two texts, one paragraph a line.
type Diff struct {
	Unified string // unified diff, 3 lines of context; "" when nothing changed
	Added   int    // lines only in the new text
	Removed int    // lines only in the old text
	// Changed counts changed paragraphs: a paragraph rewritten in place
	// counts once, not as one removed and one added.
	Changed int
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

type op struct {
	kind diffmatchpatch.Operation
	line string
}

// Compare diffs two texts paragraph by paragraph.
func Compare(oldText, newText string) Diff {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // an exact diff: texts are at most a few thousand lines
	a, b, lines := dmp.DiffLinesToRunes(join(Lines(oldText)), join(Lines(newText)))
	var ops []op
	for _, d := range dmp.DiffMainRunes(a, b, false) {
		for _, r := range d.Text {
			ops = append(ops, op{d.Type, strings.TrimSuffix(lines[r], "\n")})
		}
	}
	var d Diff
	dels, ins := 0, 0
	for _, o := range append(ops, op{kind: diffmatchpatch.DiffEqual}) {
		switch o.kind {
		case diffmatchpatch.DiffDelete:
			d.Removed++
			dels++
		case diffmatchpatch.DiffInsert:
			d.Added++
			ins++
		default:
			d.Changed += max(dels, ins)
			dels, ins = 0, 0
		}
	}
	if d.Added+d.Removed > 0 {
		d.Unified = unified(ops)
	}
	return d
}

func join(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// unified writes ops as hunks with context lines around each change;
// changes closer than twice the context share a hunk.
// prefix marks a unified diff's line: kept, removed or added.
var prefix = map[diffmatchpatch.Operation]byte{diffmatchpatch.DiffEqual: ' ', diffmatchpatch.DiffDelete: '-', diffmatchpatch.DiffInsert: '+'}

func unified(ops []op) string {
	var sb strings.Builder
	sb.WriteString("--- previous\n+++ current\n")
	// oldAt[i], newAt[i]: lines of each text before ops[i].
	oldAt, newAt := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, o := range ops {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if o.kind != diffmatchpatch.DiffInsert {
			oldAt[i+1]++
		}
		if o.kind != diffmatchpatch.DiffDelete {
			newAt[i+1]++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == diffmatchpatch.DiffEqual {
			i++
			continue
		}
		start, end := max(i-contextLines, 0), i // end: one past the hunk's last change
		for j := i; j < len(ops) && j < end+2*contextLines+1; j++ {
			if ops[j].kind != diffmatchpatch.DiffEqual {
				end = j + 1
			}
		}
		stop := min(end+contextLines, len(ops))
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", span(oldAt[start], oldAt[stop]-oldAt[start]), span(newAt[start], newAt[stop]-newAt[start]))
		for _, o := range ops[start:stop] {
			sb.WriteByte(prefix[o.kind])
			sb.WriteString(o.line)
			sb.WriteByte('\n')
		}
		i = stop
	}
	return sb.String()
}

// span is a hunk range: 1-based start and length; an empty range names the
// line before it, as diff(1) writes it.
func span(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	if n == 1 {
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// Findings returns the findings of newF not in oldF (added) and the reverse
// (removed). Findings match by category and normalized quote, as a multiset,
// so a paragraph that only moved is neither added nor removed.
func Findings(oldF, newF []analyze.Finding) (added, removed []analyze.Finding) {
	seen := map[string]int{}
	for _, f := range oldF {
		seen[findingKey(f)]++
	}
	for _, f := range newF {
		k := findingKey(f)
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		added = append(added, f)
	}
	for _, f := range oldF {
		if k := findingKey(f); seen[k] > 0 {
			seen[k]--
			removed = append(removed, f)
		}
	}
	return added, removed
}

// findingKey is a finding's category and its quote's words, lower-cased.
func findingKey(f analyze.Finding) string {
	words := strings.FieldsFunc(strings.ToLower(f.Quote), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return f.Category + "\x00" + strings.Join(words, " ")
}

// Summary is one plain sentence: "2 paragraphs changed; added: disputes go
// to private arbitration (blocker)".
func Summary(d Diff, added, removed []analyze.Finding) string {
	s := fmt.Sprintf("%d paragraphs changed", d.Changed)
	if d.Changed == 1 {
		s = "1 paragraph changed"
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
