// Command eval-grades measures the grades against ToS;DR's on the dev
// services (shared/data/tosdr/dev-grades.jsonl): their current terms of
// service and privacy policy from shared/data/corpus are analyzed together
// with a case detector trained without any of their quotes (whole services
// left out), and graded by ToS;DR's rule over the union of the cases found.
//
// The rule's thresholds are ToS;DR's scaled by one factor to the detector's
// yield, with a balance for D placed between C's and E's. They are chosen
// leaving one service out: each service is graded with the parameters that
// score best (exact plus within one letter) on the other 21, so the printed
// numbers are not fitted to the service they grade; ToS;DR's 2018 rule (no
// D balance) is chosen from apart, to show what the D balance costs. The
// parameters chosen on all 22 are printed last: they are what
// analyze.GradeThresholds ships. Each is reported for a service's terms and
// privacy policy together and for each alone.
//
//	go run ./cmd/eval-grades -data ../shared/data
//
// With -contradictions it instead analyzes the 544 corpus documents with
// the shipped engine and counts the grades that contradict their findings
// (an A or B with a blocker finding, an A with a bad one, a D or E with
// neither).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
	"github.com/clausewatch/clausewatch/internal/corpus"
)

func main() {
	data := flag.String("data", "../shared/data", "directory with tosdr/, clauses/ and corpus/")
	verbose := flag.Bool("v", false, "print each service's cases")
	flag.StringVar(&dumpPath, "dump", "", "write each dev service's documents' findings to this JSON-lines file")
	contra := flag.Bool("contradictions", false, "instead, count the corpus documents whose grade contradicts their findings (shipped engine)")
	flag.Parse()
	do := func() error { return run(*data, *verbose) }
	if *contra {
		do = func() error { return contradictions(*data) }
	}
	if err := do(); err != nil {
		fmt.Fprintln(os.Stderr, "eval-grades:", err)
		os.Exit(1)
	}
}

type devService struct {
	Service string         `json:"service"`
	ToSDR   string         `json:"tosdr"`
	Grade   string         `json:"grade"`
	Counts  map[string]int `json:"counts"`
}

func key(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "") }

func run(data string, verbose bool) error {
	dev, err := readDev(filepath.Join(data, "tosdr", "dev-grades.jsonl"))
	if err != nil {
		return err
	}
	held := map[string]bool{}
	for _, d := range dev {
		held[key(d.Service)], held[key(d.ToSDR)] = true, true
	}
	cd, err := train.ReadCaseData(data)
	if err != nil {
		return err
	}
	docs, err := corpus.Read(filepath.Join(data, "corpus", "documents.jsonl.gz"))
	if err != nil {
		return err
	}
	m, _ := train.TrainCases(cd.ToSDR, cd.Clauses, cd.Corpus, train.CaseConfig, func(s string) bool { return held[key(s)] })
	ms, err := analyze.Embedded()
	if err != nil {
		return err
	}
	ms.Cases = train.RaiseBlockers(m, train.BlockerOffset)
	engine, err := analyze.New(ms)
	if err != nil {
		return err
	}
	// cases[i], terms[i], privacy[i]: service i's cases, from its terms and
	// privacy policy together, from its terms alone and from its privacy
	// policy alone.
	cases := make([][]analyze.Case, len(dev))
	terms := make([][]analyze.Case, len(dev))
	privacy := make([][]analyze.Case, len(dev))
	for i, d := range dev {
		var results [][]analyze.Case
		for _, doc := range docs {
			if doc.Service != d.Service || !slices.Contains(train.GradedTypes, doc.Type) {
				continue
			}
			dt := "terms"
			if doc.Type == "Privacy Policy" {
				dt = "privacy"
			}
			res := engine.Analyze(doc.Text, analyze.Options{DocumentType: dt})
			results = append(results, res.Cases)
			if dt == "terms" {
				terms[i] = analyze.UnionCases(terms[i], res.Cases)
			} else {
				privacy[i] = analyze.UnionCases(privacy[i], res.Cases)
			}
			if dumpPath != "" {
				dumped = append(dumped, dumpDoc{d.Service, d.Grade, dt, len([]rune(doc.Text)), res.Coverage, res.Confidence, res.Findings})
			}
		}
		cases[i] = analyze.UnionCases(results...)
		if verbose {
			fmt.Printf("%s (%s, %d documents): %+v\n", d.Service, d.Grade, len(results), analyze.BasisOf(cases[i]))
			for _, c := range cases[i] {
				fmt.Printf("    %-8s %s\n", c.Rating, c.Title)
			}
		}
	}
	if dumpPath != "" {
		f, err := os.Create(dumpPath)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(f)
		for _, d := range dumped {
			if err := enc.Encode(d); err != nil {
				f.Close()
				return err
			}
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	gold := make([]string, len(dev))
	for i, d := range dev {
		gold[i] = d.Grade
	}
	// ToS;DR's 2018 rule (D only with a blocker) and the rule with a D
	// balance are two families of the grid; each is chosen from by leaving
	// one service out, so the price of grading a short document of bad
	// cases alone D is measured, not guessed.
	var rule2018, withD []param
	for _, d := range dShares {
		for _, sc := range scales {
			if d == 1 {
				rule2018 = append(rule2018, param{sc, d})
			} else {
				withD = append(withD, param{sc, d})
			}
		}
	}
	fmt.Printf("%-40s %5s %5s %6s %6s  %s\n", "", "rho", "±1", "exact", "top", "letters")
	for _, v := range []struct {
		name  string
		cases [][]analyze.Case
	}{{"terms alone", terms}, {"privacy alone", privacy}, {"terms and privacy", cases}} {
		fmt.Println(v.name + ":")
		report("  ToS;DR 2018 rule, leave-one-out", gold, loso(rule2018, v.cases, gold))
		report("  D balance, leave-one-out", gold, loso(withD, v.cases, gold))
		report("  shipped thresholds (in-sample)", gold, letters(param{}, v.cases))
	}
	constC := make([]string, len(dev))
	for i := range constC {
		constC[i] = "C"
	}
	report("constant C", gold, constC)
	report("ToS;DR (gold)", gold, gold)
	fmt.Println("\nexact + within one (of 44) on all 22, per D share / scale:")
	for _, p := range slices.Concat(rule2018, withD) {
		fmt.Printf("  %4g %4g: %.0f\n", p.dShare, p.scale, score(gold, letters(p, cases)))
	}
	p := choose(withD, cases, gold)
	fmt.Printf("\nchosen on all 22 services: thresholds %+v\n", p.thresholds())
	fmt.Printf("shipped: thresholds %+v (analyze.GradeThresholds)\n", analyze.GradeThresholds)
	pred, predTerms, predPrivacy := letters(param{}, cases), letters(param{}, terms), letters(param{}, privacy)
	for i, d := range dev {
		fmt.Printf("  %-20s gold %s  shipped %s  terms alone %s  privacy alone %s  %+v\n", d.Service, d.Grade, pred[i], predTerms[i], predPrivacy[i], analyze.BasisOf(cases[i]))
	}
	return nil
}

// letters grades each service's cases with p's thresholds.
func letters(p param, cases [][]analyze.Case) []string {
	t := p.thresholds()
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = analyze.Letter(c, t)
	}
	return out
}

// choose returns the parameters of grid that score best on cases, the
// first in grid order on ties.
func choose(grid []param, cases [][]analyze.Case, gold []string) param {
	best, bestScore := grid[0], -1.0
	for _, p := range grid {
		if sc := score(gold, letters(p, cases)); sc > bestScore {
			best, bestScore = p, sc
		}
	}
	return best
}

// loso grades each service with the parameters chosen on the others.
func loso(grid []param, cases [][]analyze.Case, gold []string) []string {
	pred := make([]string, len(cases))
	for i := range cases {
		others := slices.Delete(slices.Clone(cases), i, i+1)
		otherGold := slices.Delete(slices.Clone(gold), i, i+1)
		pred[i] = letters(choose(grid, others, otherGold), cases[i:i+1])[0]
	}
	return pred
}

// The grid the thresholds are chosen from: ToS;DR's E and C balances times
// a scale, D at a share of the way from C to E (1: at E, ToS;DR's 2018
// rule, where only a blocker makes D), shrunk for a basis weighing less
// than Ref = -EBelow (a smaller Ref would let a bad case lift a grade).
// Ties go to the first in order: ToS;DR's rule, then D shares from C's
// side (the dev services, whose bases are almost all bad, cannot tell the
// shares apart; the smallest grades two bad cases alone D at the floor of
// 3, README-grade.md), small scales first.
var (
	dShares = []float64{1, 0.25, 0.5, 0.75}
	scales  = []float64{2, 2.5, 3, 3.5, 4}
)

// param{} stands for the shipped thresholds.
type param struct {
	scale, dShare float64
}

// thresholds are p's; the floor is the shipped one: the dev services all
// weigh more, so it is set by what a short document should grade
// (README-grade.md), not here.
func (p param) thresholds() analyze.Thresholds {
	if p.scale == 0 {
		return analyze.GradeThresholds
	}
	t := analyze.ToSDRThresholds
	e := int(math.Round(float64(t.EBelow) * p.scale))
	c := int(math.Round(float64(t.CBelow) * p.scale))
	d := c + int(math.Round(p.dShare*float64(e-c)))
	return analyze.Thresholds{EBelow: e, DBelow: d, CBelow: c, Ref: -e, Floor: analyze.GradeThresholds.Floor}
}

func rank(l string) float64 { return float64(l[0] - 'A') }

// score is what the factor is chosen by: exact agreements plus agreements
// within one letter.
func score(gold, pred []string) float64 {
	s := 0.0
	for i := range gold {
		d := math.Abs(rank(gold[i]) - rank(pred[i]))
		if d == 0 {
			s++
		}
		if d <= 1 {
			s++
		}
	}
	return s
}

func report(name string, gold, pred []string) {
	exact, within := 0, 0
	dist := map[string]int{}
	for i := range gold {
		d := math.Abs(rank(gold[i]) - rank(pred[i]))
		if d == 0 {
			exact++
		}
		if d <= 1 {
			within++
		}
		dist[pred[i]]++
	}
	n := float64(len(gold))
	top := 0
	var ds []string
	for _, l := range []string{"A", "B", "C", "D", "E"} {
		top = max(top, dist[l])
		ds = append(ds, fmt.Sprintf("%s %d", l, dist[l]))
	}
	fmt.Printf("%-22s %5.2f %4.0f%% %5.0f%% %5.0f%%  %s\n", name, spearman(gold, pred), 100*float64(within)/n, 100*float64(exact)/n, 100*float64(top)/n, strings.Join(ds, ", "))
}

// spearman is Spearman's rho of the letters (ties get their mean rank);
// NaN when one side is constant.
func spearman(a, b []string) float64 {
	ra, rb := ranks(a), ranks(b)
	var ma, mb float64
	for i := range ra {
		ma += ra[i] / float64(len(ra))
		mb += rb[i] / float64(len(rb))
	}
	var sab, saa, sbb float64
	for i := range ra {
		sab += (ra[i] - ma) * (rb[i] - mb)
		saa += (ra[i] - ma) * (ra[i] - ma)
		sbb += (rb[i] - mb) * (rb[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

func ranks(xs []string) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	out := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			out[idx[k]] = float64(i+j-1) / 2
		}
		i = j
	}
	return out
}

func readDev(path string) ([]devService, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []devService
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d devService
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, sc.Err()
}

var dumpPath string

type dumpDoc struct {
	Service, Gold, Type string
	Runes               int
	Coverage            float64
	Confidence          string
	Findings            []analyze.Finding
}

var dumped []dumpDoc
