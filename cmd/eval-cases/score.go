package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// scored is a labelled sentence with the cases of the findings that overlap
// it.
type scored struct {
	Label
	found    []string
	findings []analyze.Finding // every finding overlapping the sentence, for calibration
	read     analyze.Reading   // the analyzer's reading of the sentence (ReadClause)
}

// match gives each labelled sentence of one document (ls, all of the
// document whose text is text) the distinct cases of the findings whose
// offsets overlap the sentence's, and those findings. Findings of a
// category alone (no case) are not scored as cases, only calibrated.
func match(text string, findings []analyze.Finding, ls []Label) []scored {
	spans := analyze.Sentences(text)
	names := analyze.Names(text)
	out := make([]scored, 0, len(ls))
	for _, l := range ls {
		s := scored{Label: l, read: analyze.ReadClause(l.Text, names)}
		sp := spans[l.Sentence]
		for _, f := range findings {
			if !(f.Start < sp.End && sp.Start < f.End) {
				continue
			}
			s.findings = append(s.findings, f)
			if f.Case != "" && !slices.Contains(s.found, f.Case) {
				s.found = append(s.found, f.Case)
			}
		}
		out = append(out, s)
	}
	return out
}

// ignored reports whether a sentence counts neither for nor against the
// analyzer: the labels' README asks that summary sentences, which restate
// later sections and carry no case, be left out of precision (and they
// carry nothing to recall).
func ignored(s scored) bool { return s.Kind == "summary" }

// count is a case's (or a group's) tally over sentences.
type count struct{ tp, fp, fn int }

func (c count) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c count) recall() float64    { return ratio(c.tp, c.tp+c.fn) }
func (c count) f1() float64 {
	p, r := c.precision(), c.recall()
	if p+r == 0 || math.IsNaN(p) || math.IsNaN(r) {
		return math.NaN()
	}
	return 2 * p * r / (p + r)
}
func (c count) support() int { return c.tp + c.fn }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// scoreCases counts, per case, the sentences labelled with it that the
// analyzer found (tp) and missed (fn), and those it found it on that carry
// another case or none (fp).
func scoreCases(ss []scored) map[string]count {
	out := map[string]count{}
	for _, s := range ss {
		if ignored(s) {
			continue
		}
		for _, c := range s.found {
			n := out[c]
			if c == s.Case {
				n.tp++
			} else {
				n.fp++
			}
			out[c] = n
		}
		if s.Case != "" && !slices.Contains(s.found, s.Case) {
			n := out[s.Case]
			n.fn++
			out[s.Case] = n
		}
	}
	return out
}

// scoreGroup counts at the level of a group of cases: a sentence labelled
// with one of titles is found when any of titles is found on it, so a
// licence read as the group's neighbouring title still counts.
func scoreGroup(ss []scored, titles []string) count {
	var n count
	for _, s := range ss {
		if ignored(s) {
			continue
		}
		labelled := slices.Contains(titles, s.Case)
		found := slices.ContainsFunc(s.found, func(c string) bool { return slices.Contains(titles, c) })
		switch {
		case labelled && found:
			n.tp++
		case labelled:
			n.fn++
		case found:
			n.fp++
		}
	}
	return n
}

// weighty are the practices whose recall the issue asks for, each as the
// cases.tsv titles that state it (the table of the labels' README).
var weighty = []struct {
	name   string
	titles []string
}{
	{"broad content licence", []string{
		"The copyright license maintained by the service over user data and/or content is broader than necessary.",
		"This service can license user content to third parties",
		"This service keeps a license on user-generated content even after users close their accounts.",
	}},
	{"personalised advertising from personal data", []string{
		"The service uses your personal data to employ targeted third-party advertising",
		"The service uses your personal data for advertising",
	}},
	{"sale or sharing of data for advertising", []string{
		"The service may sell your data unless you opt out",
		"Your personal data is given to third parties",
	}},
	{"moral-rights waiver", []string{"You waive your moral rights"}},
	{"class-action waiver", []string{"You waive your right to a class action."}},
	{"binding arbitration", []string{"This service forces users into binding arbitration in the case of disputes"}},
	{"liability cap or exclusion", []string{
		"This service assumes no liability for any losses or damages resulting from any matter relating to the service",
		"Any liability on behalf of the service is only limited to the fees you paid as a user",
	}},
	{"termination without reason or notice", []string{"The service can delete your account without prior notice and without a reason"}},
	{"changes without notice", []string{"Terms may be changed any time at their discretion, without notice to the user"}},
}

// nonClauseKinds are the kinds on which a case finding is misplaced
// whatever its case.
var nonClauseKinds = []string{"toc", "summary", "heading", "cross_reference", "definition", "example"}

// minSupport is the fewest labelled sentences a case needs to be listed
// when the analyzer never found it.
const minSupport = 3

// wilson is the 95% Wilson score interval of k successes in n.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	const z = 1.96
	p, nf := float64(k)/float64(n), float64(n)
	c := (p + z*z/(2*nf)) / (1 + z*z/nf)
	h := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, c-h), min(1, c+h)
}

// frac prints k of n with its share and interval.
func frac(k, n int) string {
	if n == 0 {
		return "n/a (0 of 0)"
	}
	lo, hi := wilson(k, n)
	return fmt.Sprintf("%.2f (%d of %d; 95%% %.2f-%.2f)", float64(k)/float64(n), k, n, lo, hi)
}

// printScores reports the analyzer's case findings against the labels;
// rating maps cases.tsv's titles to their ratings.
func printScores(w io.Writer, ss []scored, rating map[string]string) {
	cs := scoreCases(ss)
	var titles []string
	for t, n := range cs {
		if n.support() >= minSupport || n.tp+n.fp > 0 {
			titles = append(titles, t)
		}
	}
	slices.SortFunc(titles, func(a, b string) int {
		return cmp.Or(cmp.Compare(rating[a], rating[b]), cs[b].support()-cs[a].support(), cmp.Compare(a, b))
	})
	fmt.Fprintf(w, "per case (labelled support >= %d, or found at least once; summary sentences ignored)\n", minSupport)
	fmt.Fprintf(w, "  %-8s %7s %5s %5s %5s %5s  %s\n", "rating", "support", "found", "P", "R", "F1", "case")
	for _, t := range titles {
		n := cs[t]
		fmt.Fprintf(w, "  %-8s %7d %5d %5.2f %5.2f %5.2f  %.90s\n", rating[t], n.support(), n.tp+n.fp, n.precision(), n.recall(), n.f1(), t)
	}

	var all count
	for _, n := range cs {
		all.tp, all.fp, all.fn = all.tp+n.tp, all.fp+n.fp, all.fn+n.fn
	}
	fmt.Fprintf(w, "\nall cases, micro: precision %s; recall %s\n", frac(all.tp, all.tp+all.fp), frac(all.tp, all.tp+all.fn))

	var good count
	var low []string
	for _, t := range titles {
		if rating[t] != analyze.SeverityGood {
			continue
		}
		n := cs[t]
		good.tp, good.fp = good.tp+n.tp, good.fp+n.fp
		if n.tp+n.fp > 0 && n.precision() < 0.9 {
			low = append(low, fmt.Sprintf("    %.2f (%d of %d) %s", n.precision(), n.tp, n.tp+n.fp, t))
		}
	}
	fmt.Fprintf(w, "good-case precision, all good cases: %s\n", frac(good.tp, good.tp+good.fp))
	fmt.Fprintf(w, "  good cases found below 0.9 precision: %d\n", len(low))
	for _, l := range low {
		fmt.Fprintln(w, l)
	}

	fmt.Fprintf(w, "\nweighty practices (a sentence of the group found as any case of the group)\n")
	fmt.Fprintf(w, "  %-46s %s\n", "practice", "recall; precision")
	for _, g := range weighty {
		n := scoreGroup(ss, g.titles)
		fmt.Fprintf(w, "  %-46s %s; %s\n", g.name, frac(n.tp, n.tp+n.fn), frac(n.tp, n.tp+n.fp))
	}

	byKind := map[string]int{}
	found, onUser, fp, fpUser := 0, 0, 0, 0
	for _, s := range ss {
		byKind[s.Kind] += len(s.found)
		if ignored(s) {
			continue
		}
		for _, c := range s.found {
			user := s.Kind == "clause" && s.Actor == "user"
			found++
			onUser += boolInt(user)
			if c != s.Case {
				fp++
				fpUser += boolInt(user)
			}
		}
	}
	fmt.Fprintf(w, "\ncase findings (sentence, case) on sentences that are not clauses, of %d in all:\n", found+byKind["summary"])
	for _, k := range nonClauseKinds {
		note := ""
		if k == "summary" {
			note = "  (ignored for precision, as the labels' README recommends)"
		}
		fmt.Fprintf(w, "  %-16s %4d%s\n", k, byKind[k], note)
	}
	fmt.Fprintf(w, "case findings on clauses whose labelled actor is the user: %s; of the wrong ones: %s\n", frac(onUser, found), frac(fpUser, fp))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
