package analyze

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// pattern is a regexp that runs only the alternatives the text can match.
// Most of the analysis's patterns are long alternations ("\bbinding
// arbitration\b|\bmandatory arbitration\b|..."), and most sentences hold
// the words of none or one of their alternatives: Go's regexp runs the
// whole alternation at every position of the text, and a long one on a
// long sentence with its slower NFA rather than its backtracker. Each
// top-level alternative has one or two sets of literals, any match of it
// containing one literal of each (found from its syntax); a text without
// them cannot match the alternative, so the pattern matches a text exactly as the
// alternation of the alternatives whose literals the text holds, kept in
// their order (the leftmost-first match is the same: an alternative left
// out never matched anywhere in the text). Those alternations are
// compiled once per set of alternatives, when first needed.
//
// The methods that report submatches run the whole pattern (leaving an
// alternative out would renumber the groups), once the text holds the
// literals of one of its alternatives; the methods of *regexp.Regexp not
// redefined here run the whole pattern.
type pattern struct {
	*regexp.Regexp
	alts  []string     // top-level alternatives, as written
	lits  [][][]string // lits[k]: any match of alts[k] contains one literal of each set; nil: none needed
	flags string       // leading flags ("(?i)") every alternative needs
	sub   sync.Map     // uint64 mask of alts -> *regexp.Regexp
	subs  atomic.Int32
}

// maxSubs bounds the alternations compiled for one pattern: past it (a
// text made to hold every set of words) the whole pattern runs.
const maxSubs = 64

// patterns are every pattern compiled, for the test that each matches
// as its regexp does.
var patterns []*pattern

// inlineFlagsRe finds flags set inside a pattern ("a(?i)b|c"), which reach
// past a "|": such a pattern is not read apart.
var inlineFlagsRe = regexp.MustCompile(`\(\?[a-zA-Z-]+\)`)

// maxAlts bounds the alternatives a pattern reads apart (a mask is a
// uint64); a longer alternation keeps its last ones together.
const maxAlts = 64

// mustPattern compiles pat (regexp.MustCompile's syntax).
func mustPattern(pat string) *pattern {
	p := newPattern(pat)
	patterns = append(patterns, p)
	return p
}

func newPattern(pat string) *pattern {
	p := &pattern{Regexp: regexp.MustCompile(pat)}
	body := pat
	if loc := inlineFlagsRe.FindStringIndex(pat); loc != nil && loc[0] == 0 {
		p.flags, body = pat[:loc[1]], pat[loc[1]:]
	}
	if inlineFlagsRe.MatchString(body) {
		return p // the whole pattern, always run
	}
	p.alts = splitAlternation(body)
	if len(p.alts) > maxAlts {
		p.alts = append(p.alts[:maxAlts-1], strings.Join(p.alts[maxAlts-1:], "|"))
	}
	for _, a := range p.alts {
		re, err := syntax.Parse(p.flags+a, syntax.Perl)
		if err != nil {
			// an alternative that does not parse alone (never seen):
			// the whole pattern is always run
			p.alts, p.lits = nil, nil
			break
		}
		re = re.Simplify()
		lits := requiredAll(re)
		if anchored(re) {
			// an alternative anchored at the start is tried at the
			// start alone, cheaper than looking for its words
			lits = nil
		}
		p.lits = append(p.lits, lits)
	}
	return p
}

// mask returns the alternatives the text may match.
func (p *pattern) mask(s string) uint64 {
	var m uint64
alts:
	for k, sets := range p.lits {
		for _, lits := range sets {
			if !containsAny(s, lits) {
				continue alts
			}
		}
		m |= 1 << k
	}
	return m
}

// of returns the regexp of the alternatives the text may match, nil when
// it can match none.
func (p *pattern) of(s string) *regexp.Regexp {
	if p.alts == nil {
		return p.Regexp
	}
	m := p.mask(s)
	switch {
	case m == 0:
		return nil
	case m == 1<<len(p.alts)-1:
		return p.Regexp
	}
	if re, ok := p.sub.Load(m); ok {
		return re.(*regexp.Regexp)
	}
	if p.subs.Add(1) > maxSubs {
		return p.Regexp
	}
	var parts []string
	for k, a := range p.alts {
		if m&(1<<k) != 0 {
			parts = append(parts, a)
		}
	}
	re := regexp.MustCompile(p.flags + strings.Join(parts, "|"))
	p.sub.Store(m, re)
	return re
}

func (p *pattern) MatchString(s string) bool {
	re := p.of(s)
	return re != nil && re.MatchString(s)
}

func (p *pattern) FindString(s string) string {
	if re := p.of(s); re != nil {
		return re.FindString(s)
	}
	return ""
}

func (p *pattern) FindStringIndex(s string) []int {
	if re := p.of(s); re != nil {
		return re.FindStringIndex(s)
	}
	return nil
}

func (p *pattern) FindAllStringIndex(s string, n int) [][]int {
	if re := p.of(s); re != nil {
		return re.FindAllStringIndex(s, n)
	}
	return nil
}

func (p *pattern) ReplaceAllString(src, repl string) string {
	if re := p.of(src); re != nil {
		return re.ReplaceAllString(src, repl)
	}
	return src
}

func (p *pattern) FindStringSubmatch(s string) []string {
	if p.alts != nil && p.mask(s) == 0 {
		return nil
	}
	return p.Regexp.FindStringSubmatch(s)
}

func (p *pattern) FindStringSubmatchIndex(s string) []int {
	if p.alts != nil && p.mask(s) == 0 {
		return nil
	}
	return p.Regexp.FindStringSubmatchIndex(s)
}

func (p *pattern) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if p.alts != nil && p.mask(s) == 0 {
		return nil
	}
	return p.Regexp.FindAllStringSubmatchIndex(s, n)
}

func (p *pattern) FindAllStringSubmatch(s string, n int) [][]string {
	if p.alts != nil && p.mask(s) == 0 {
		return nil
	}
	return p.Regexp.FindAllStringSubmatch(s, n)
}

// splitAlternation cuts a pattern at its top-level "|".
func splitAlternation(pat string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			// a class: "]" right after "[" or "[^" is a member
			i++
			if i < len(pat) && pat[i] == '^' {
				i++
			}
			if i < len(pat) && pat[i] == ']' {
				i++
			}
			for i < len(pat) && pat[i] != ']' {
				if pat[i] == '\\' {
					i++
				} else if pat[i] == '[' && i+1 < len(pat) && pat[i+1] == ':' {
					// [:alpha:]
					if end := strings.Index(pat[i+2:], ":]"); end >= 0 {
						i += end + 3
					}
				}
				i++
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, pat[start:i])
				start = i + 1
			}
		}
	}
	return append(out, pat[start:])
}

// maxLits bounds the literals a pattern's pre-check tries.
const maxLits = 32

// required returns literals one of which every match of re contains, or
// false when there are none worth checking (re can match without any
// literal of at least two bytes, or it has too many).
func required(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			lits, ok := required(s)
			if !ok {
				return nil, false
			}
			out = append(out, lits...)
		}
		return usable(out)
	case syntax.OpConcat:
		// every part's match is in the whole's: the best part's literals
		var best []string
		for _, set := range parts(re) {
			if better(set, best) {
				best = set
			}
		}
		return best, best != nil
	}
	if set, ok := exact(re); ok {
		return usable(set)
	}
	return nil, false
}

// parts returns, for each part of concatenation re, literals one of which
// any match of the part contains: every match of re holds one literal of
// each set. Runs of exactly known parts are joined first ("sub-?licens").
func parts(re *syntax.Regexp) [][]string {
	var out [][]string
	var best, run []string
	runOK := false
	endRun := func() {
		if best != nil {
			out = append(out, best)
		}
		best, runOK = nil, false
	}
	for _, s := range re.Sub {
		set, ok := exact(s)
		if !ok {
			endRun()
			if lits, ok := required(s); ok {
				out = append(out, lits)
			}
			continue
		}
		if !runOK {
			run, runOK = set, true
		} else if run, runOK = cross(run, set); !runOK {
			endRun()
			run, runOK = set, true
		}
		if lits, ok := usable(run); ok && better(lits, best) {
			best = lits
		}
	}
	endRun()
	return out
}

// requiredAll returns sets of literals each of which any match of re
// holds one of: the two sharpest of a concatenation's parts ("effective
// ... post"), else required's one.
func requiredAll(re *syntax.Regexp) [][]string {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat {
		if lits, ok := required(re); ok {
			return [][]string{lits}
		}
		return nil
	}
	sets := parts(re)
	slices.SortStableFunc(sets, func(a, b []string) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
	return sets[:min(len(sets), 2)]
}

// anchored: re matches only at the start of the text.
func anchored(re *syntax.Regexp) bool {
	for re.Op == syntax.OpConcat || re.Op == syntax.OpCapture {
		if len(re.Sub) == 0 {
			return false
		}
		re = re.Sub[0]
	}
	return re.Op == syntax.OpBeginText
}

// exact returns every string re matches, when they are few.
func exact(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		// an invalid byte of the text reads as U+FFFD, which no
		// strings.Contains of its encoding finds
		if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, utf8.RuneError) {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == 4 || r == utf8.RuneError {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		set, ok := exact(re.Sub[0])
		if !ok {
			return nil, false
		}
		return append(set, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			set, ok := exact(s)
			if !ok || len(out)+len(set) > maxLits {
				return nil, false
			}
			out = append(out, set...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			set, ok := exact(s)
			if !ok {
				return nil, false
			}
			if out, ok = cross(out, set); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// cross is every a followed by every b, when they are few.
func cross(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxLits {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out, true
}

// usable: literals worth a check, all of two bytes at least; one that is
// a part of another makes the other's check needless.
func usable(lits []string) ([]string, bool) {
	if len(lits) == 0 || len(lits) > maxLits {
		return nil, false
	}
	var out []string
	for i, l := range lits {
		if len(l) < 2 {
			return nil, false
		}
		dup := false
		for j, o := range lits {
			if j != i && strings.Contains(l, o) && (len(o) < len(l) || j < i) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, l)
		}
	}
	return out, true
}

// better: strings of four bytes or more to look for (which few
// sentences hold by chance), then fewer of them, then longer ones make a
// sharper and cheaper check.
func better(lits, than []string) bool {
	if than == nil {
		return true
	}
	short := func(ls []string) int {
		n := len(ls[0])
		for _, l := range ls {
			n = min(n, len(l))
		}
		return n
	}
	a, b := short(lits), short(than)
	if min(a, 4) != min(b, 4) {
		return a > b
	}
	if len(lits) != len(than) {
		return len(lits) < len(than)
	}
	return a > b
}
