package change

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// goDiffCompare is Compare as it was on go-diff's line mode, kept as the
// oracle: below 55,296 distinct lines the bounded diff must write the same.
func goDiffCompare(oldText, newText string) Diff {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	a, b, lines := dmp.DiffLinesToRunes(goDiffJoin(Lines(oldText)), goDiffJoin(Lines(newText)))
	type op struct {
		kind diffmatchpatch.Operation
		line string
	}
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
	if d.Added+d.Removed == 0 {
		return d
	}
	mark := map[diffmatchpatch.Operation]byte{diffmatchpatch.DiffEqual: ' ', diffmatchpatch.DiffDelete: '-', diffmatchpatch.DiffInsert: '+'}
	var sb strings.Builder
	sb.WriteString("--- previous\n+++ current\n")
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
		start, end := max(i-contextLines, 0), i
		for j := i; j < len(ops) && j < end+2*contextLines+1; j++ {
			if ops[j].kind != diffmatchpatch.DiffEqual {
				end = j + 1
			}
		}
		stop := min(end+contextLines, len(ops))
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkSpan(oldAt[start], oldAt[stop]-oldAt[start]), hunkSpan(newAt[start], newAt[stop]-newAt[start]))
		for _, o := range ops[start:stop] {
			sb.WriteByte(mark[o.kind])
			sb.WriteString(o.line)
			sb.WriteByte('\n')
		}
		i = stop
	}
	d.Unified = sb.String()
	return d
}

func goDiffJoin(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// randomText is n paragraphs drawn from an alphabet of k, so that lines
// repeat and edits can slide.
func randomText(r *rand.Rand, n, k int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("Paragraph %d.", r.IntN(k))
	}
	return strings.Join(ps, "\n\n")
}

// mutate edits about a fraction f of text's paragraphs.
func mutate(r *rand.Rand, text string, f float64, k int) string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		switch x := r.Float64(); {
		case x < f/3: // dropped
		case x < 2*f/3:
			out = append(out, fmt.Sprintf("Paragraph %d.", r.IntN(k)))
		case x < f:
			out = append(out, p, fmt.Sprintf("Paragraph %d.", r.IntN(k)))
		default:
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

func TestCompareWritesWhatGoDiffWrote(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		n, k := r.IntN(60), 1+r.IntN(12)
		if i%10 == 0 {
			n, k = r.IntN(2000), 1+r.IntN(3000)
		}
		old := randomText(r, n, k)
		var cur string
		if r.IntN(4) == 0 {
			cur = randomText(r, r.IntN(60), k)
		} else {
			cur = mutate(r, old, r.Float64()*0.5, k)
		}
		got, want := Compare(old, cur), goDiffCompare(old, cur)
		if got != want {
			t.Fatalf("case %d: got %+v\nwant %+v\nold %q\nnew %q", i, got, want, old, cur)
		}
	}
}

// FuzzCompare: any two texts compare without panic, the counts agree with
// the unified diff and the texts' lengths, and below go-diff's breaking
// point the diff is go-diff's.
func FuzzCompare(f *testing.F) {
	f.Add("Terms\n\nOne.\n\nTwo.", "Terms\n\nOne!\n\nTwo.\n\nThree.")
	f.Add("a\n\nb\n\na\n\nb\n\nc", "b\n\na\n\nc\n\na")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		d := Compare(oldText, newText)
		if len(Lines(newText))-len(Lines(oldText)) != d.Added-d.Removed {
			t.Fatalf("added %d removed %d for %d -> %d lines", d.Added, d.Removed, len(Lines(oldText)), len(Lines(newText)))
		}
		if d.Summarised {
			if d.Unified != "" || d.Changed != max(d.Added, d.Removed) {
				t.Fatalf("inconsistent summary %+v", d)
			}
			return
		}
		if len(Lines(oldText))+len(Lines(newText)) < 20000 {
			if want := goDiffCompare(oldText, newText); d != want {
				t.Fatalf("got %+v\nwant %+v", d, want)
			}
		}
		if (d.Unified == "") != (d.Added+d.Removed == 0) || d.Changed < max(d.Added, d.Removed) || d.Changed > d.Added+d.Removed {
			t.Fatalf("inconsistent %+v", d)
		}
		plus, minus := 0, 0
		for _, l := range strings.Split(strings.TrimPrefix(d.Unified, "--- previous\n+++ current\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "+"):
				plus++
			case strings.HasPrefix(l, "-"):
				minus++
			}
		}
		if plus != d.Added || minus != d.Removed {
			t.Fatalf("unified has +%d -%d, diff says +%d -%d:\n%s", plus, minus, d.Added, d.Removed, d.Unified)
		}
		if self := Compare(newText, newText); self != (Diff{}) {
			t.Fatalf("a text differs from itself: %+v", self)
		}
	})
}
