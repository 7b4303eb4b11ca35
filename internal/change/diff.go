package change

import (
	"context"
	"errors"
	"slices"
)

// The line diff below is go-diff's (github.com/sergi/go-diff, with no
// timeout and no half-match) carried over to slices of line numbers, so
// alerts read as they always did: go-diff's own line mode numbers lines
// with runes, which stop being numbers past 55,296 distinct lines. Its
// cost is bounded, which go-diff's is not.

// Limits of one diff. Every step of the search and of the clean-up spends
// one unit of work; a diff that would need more, or more than maxHalfEdits
// lines of edit path from either end, is summarised instead (see Diff).
// maxWork is about half a second of CPU; maxHalfEdits bounds the search's
// memory (two slices of 2*maxHalfEdits ints, 1 MiB).
const (
	maxWork      = 50_000_000
	maxHalfEdits = 1 << 15
	// checkEvery is how much work passes between two looks at the context.
	checkEvery = 1 << 16
)

// errTooLarge stops a diff that would exceed its limits.
var errTooLarge = errors.New("diff exceeds its work bound")

type kind int8

const (
	equal kind = iota
	del
	ins
)

// run is n consecutive lines of one kind. A diff is a list of runs that
// covers both texts in order; where a run's lines sit follows from the
// runs before it.
type run struct {
	kind kind
	n    int
}

// advance is how far a run moves through the old and the new text.
func (r run) advance() (int, int) {
	switch r.kind {
	case del:
		return r.n, 0
	case ins:
		return 0, r.n
	}
	return r.n, r.n
}

// differ diffs sequences of line numbers within a work budget; once err is
// set every call returns nil and the result is void.
type differ struct {
	ctx     context.Context
	work    int // left
	unseen  int // work since the context was last looked at
	err     error
	scratch [2][]int
}

// spend takes n units of work and reports whether the diff may go on.
func (d *differ) spend(n int) bool {
	if d.err != nil {
		return false
	}
	d.work -= n
	d.unseen += n
	if d.work < 0 {
		d.err = errTooLarge
		return false
	}
	if d.unseen >= checkEvery {
		d.unseen = 0
		d.err = d.ctx.Err()
	}
	return d.err == nil
}

// diff is go-diff's diffMainRunes.
func (d *differ) diff(a, b []int) []run {
	if !d.spend(3*min(len(a), len(b)) + 1) {
		return nil
	}
	if slices.Equal(a, b) {
		if len(a) == 0 {
			return nil
		}
		return []run{{equal, len(a)}}
	}
	pre := commonPrefix(a, b)
	suf := commonSuffix(a[pre:], b[pre:])
	mid := d.compute(a[pre:len(a)-suf], b[pre:len(b)-suf])
	if d.err != nil {
		return nil
	}
	var rs []run
	if pre > 0 {
		rs = append(rs, run{equal, pre})
	}
	rs = append(rs, mid...)
	if suf > 0 {
		rs = append(rs, run{equal, suf})
	}
	return d.cleanupMerge(a, b, rs)
}

// compute is go-diff's diffCompute for texts with no common prefix or
// suffix.
func (d *differ) compute(a, b []int) []run {
	if len(a) == 0 {
		return []run{{ins, len(b)}}
	}
	if len(b) == 0 {
		return []run{{del, len(a)}}
	}
	long, short, k := b, a, ins
	if len(a) > len(b) {
		long, short, k = a, b, del
	}
	if !d.spend(len(long) + len(short)) {
		return nil
	}
	if i := index(long, short); i >= 0 {
		return []run{{k, i}, {equal, len(short)}, {k, len(long) - i - len(short)}}
	}
	if len(short) == 1 {
		return []run{{del, len(a)}, {ins, len(b)}}
	}
	return d.bisect(a, b)
}

// bisect is go-diff's diffBisect: Myers' middle snake, then each half on
// its own. The search arrays hold at most maxHalfEdits diagonals a side.
func (d *differ) bisect(a, b []int) []run {
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	limit := min(maxD, maxHalfEdits)
	off, size := limit, 2*limit+2
	v1, v2 := d.vectors(size)
	delta := n - m
	front := delta%2 != 0
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for D := 0; D < limit; D++ {
		// Diagonals -D-1 to D+1 may be read in this step; the ones beyond
		// are unreached (-1), as go-diff's fully filled arrays say.
		for _, v := range [][]int{v1, v2} {
			v[off-D-1], v[off+D+1] = -1, -1
			if D == 0 {
				v[off], v[off+1] = -1, 0
			}
		}
		set := func(v []int, k int) bool { return k >= -D && k <= D && v[off+k] != -1 }
		work := 0
		for k1 := -D + k1start; k1 <= D-k1end; k1 += 2 {
			var x1 int
			if k1 == -D || (k1 != D && v1[off+k1-1] < v1[off+k1+1]) {
				x1 = v1[off+k1+1]
			} else {
				x1 = v1[off+k1-1] + 1
			}
			y1 := x1 - k1
			start := x1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1++
				y1++
			}
			work += 1 + x1 - start
			v1[off+k1] = x1
			if x1 > n {
				k1end += 2
			} else if y1 > m {
				k1start += 2
			} else if front && set(v2, delta-k1) && x1 >= n-v2[off+delta-k1] {
				return d.split(a, b, x1, y1)
			}
		}
		for k2 := -D + k2start; k2 <= D-k2end; k2 += 2 {
			var x2 int
			if k2 == -D || (k2 != D && v2[off+k2-1] < v2[off+k2+1]) {
				x2 = v2[off+k2+1]
			} else {
				x2 = v2[off+k2-1] + 1
			}
			y2 := x2 - k2
			start := x2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2++
				y2++
			}
			work += 1 + x2 - start
			v2[off+k2] = x2
			if x2 > n {
				k2end += 2
			} else if y2 > m {
				k2start += 2
			} else if !front && set(v1, delta-k2) {
				x1 := v1[off+delta-k2]
				if y1 := x1 - delta + k2; x1 >= n-x2 {
					return d.split(a, b, x1, y1)
				}
			}
		}
		if !d.spend(work) {
			return nil
		}
	}
	if limit < maxD {
		d.err = errTooLarge
		return nil
	}
	// No line in common.
	return []run{{del, n}, {ins, m}}
}

// vectors returns bisect's two search arrays, uninitialized. Bisect's
// recursion starts only after its arrays are done with, so one pair serves.
func (d *differ) vectors(size int) ([]int, []int) {
	for i := range d.scratch {
		if cap(d.scratch[i]) < size {
			d.scratch[i] = make([]int, size)
		}
	}
	return d.scratch[0][:size], d.scratch[1][:size]
}

func (d *differ) split(a, b []int, x, y int) []run {
	rs := d.diff(a[:x], b[:y])
	return append(rs, d.diff(a[x:], b[y:])...)
}

// cleanupMerge is go-diff's DiffCleanupMerge: it merges neighbouring runs
// of a kind, pulls lines common to a deletion and an insertion out into the
// equalities around them, and slides single edits sideways where that
// removes an equality. rs covers a and b.
func (d *differ) cleanupMerge(a, b []int, rs []run) []run {
	for {
		rs = d.mergePass(a, b, rs)
		var changed bool
		if rs, changed = d.shiftPass(a, b, rs); d.err != nil || !changed {
			return rs
		}
	}
}

// mergePass is DiffCleanupMerge's first pass.
func (d *differ) mergePass(a, b []int, rs []run) []run {
	if !d.spend(len(rs) + 1) {
		return nil
	}
	var out, pending []run
	// ca, cb: where the next run of rs starts; nd, ni: the pending edits'
	// lines of a and b.
	ca, cb, nd, ni := 0, 0, 0, 0
	for _, r := range append(rs, run{equal, 0}) {
		da, db := r.advance()
		ca, cb = ca+da, cb+db
		if r.kind != equal {
			pending = append(pending, r)
			nd, ni = nd+da, ni+db
			continue
		}
		hasDel := slices.ContainsFunc(pending, func(p run) bool { return p.kind == del })
		hasIns := slices.ContainsFunc(pending, func(p run) bool { return p.kind == ins })
		switch {
		case len(pending) > 1:
			if hasDel && hasIns {
				if !d.spend(2 * min(nd, ni)) {
					return nil
				}
				i, j := ca-r.n-nd, cb-r.n-ni // where the edits start
				if p := commonPrefix(b[j:j+ni], a[i:i+nd]); p > 0 {
					if len(out) > 0 {
						out[len(out)-1].n += p
					} else {
						out = append(out, run{equal, p})
					}
					i, j, nd, ni = i+p, j+p, nd-p, ni-p
				}
				if s := commonSuffix(b[j:j+ni], a[i:i+nd]); s > 0 {
					r.n += s
					nd, ni = nd-s, ni-s
				}
			}
			if hasDel {
				out = append(out, run{del, nd})
			}
			if hasIns {
				out = append(out, run{ins, ni})
			}
			out = append(out, r)
		case len(pending) == 1:
			out = append(out, pending[0], r)
		case len(out) > 0 && out[len(out)-1].kind == equal:
			out[len(out)-1].n += r.n
		default:
			out = append(out, r)
		}
		pending, nd, ni = pending[:0], 0, 0
	}
	if out[len(out)-1].n == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// shiftPass is DiffCleanupMerge's second pass: an edit between two
// equalities that ends with the one before it (A<ins>BA</ins>C) slides
// left over it (<ins>AB</ins>AC); one that starts with the one after it
// slides right.
func (d *differ) shiftPass(a, b []int, rs []run) ([]run, bool) {
	changed := false
	// pa, pb: where rs[p-1] starts.
	pa, pb := 0, 0
	for p := 1; p < len(rs)-1; p++ {
		if !d.spend(1) {
			return nil, false
		}
		prev, edit, next := rs[p-1], rs[p], rs[p+1]
		da, db := prev.advance()
		ea, eb := pa+da, pb+db // where the edit starts
		if prev.kind != equal || next.kind != equal {
			pa, pb = ea, eb
			continue
		}
		seq, at := a, ea
		if edit.kind == ins {
			seq, at = b, eb
		}
		na := ea + edit.n // where next starts in a, for a deletion
		if edit.kind == ins {
			na = ea
		}
		switch {
		case prev.n <= edit.n && d.spend(prev.n) && slices.Equal(seq[at+edit.n-prev.n:at+edit.n], a[ea-prev.n:ea]):
			rs[p+1].n += prev.n
			rs = slices.Delete(rs, p-1, p)
			changed = true
			// rs[p-1] is the edit, starting where prev did; rs[p] is next.
			xa, xb := edit.advance()
			pa, pb = pa+xa, pb+xb
		case next.n <= edit.n && d.spend(next.n) && slices.Equal(seq[at:at+next.n], a[na:na+next.n]):
			rs[p-1].n += next.n
			rs = slices.Delete(rs, p+1, p+2)
			changed = true
			// rs[p] is the edit, now starting next.n lines later.
			pa, pb = ea+next.n, eb+next.n
		default:
			pa, pb = ea, eb
		}
		if d.err != nil {
			return nil, false
		}
	}
	return rs, changed
}

func commonPrefix(a, b []int) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []int) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// index is the first position of sub in s, or -1 (Knuth-Morris-Pratt:
// linear, where go-diff's search is quadratic).
func index(s, sub []int) int {
	if len(sub) == 0 {
		return 0
	}
	fail := make([]int, len(sub))
	for i, k := 1, 0; i < len(sub); i++ {
		for k > 0 && sub[i] != sub[k] {
			k = fail[k-1]
		}
		if sub[i] == sub[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := 0, 0; i < len(s); i++ {
		for k > 0 && s[i] != sub[k] {
			k = fail[k-1]
		}
		if s[i] == sub[k] {
			k++
		}
		if k == len(sub) {
			return i - len(sub) + 1
		}
	}
	return -1
}
