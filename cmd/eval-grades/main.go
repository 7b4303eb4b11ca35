// Command eval-grades measures the grades against ToS;DR's on the
// development grades: the 28 services of shared/data/tosdr-silver (silver
// grades, ToS;DR's rule on each service's distinct approved cases, with
// their current documents) and the 22 of shared/data/tosdr/dev-grades.jsonl
// (their terms and privacy policy from shared/data/corpus). Each document
// is analyzed on its own, with a case detector trained without any of
// these services' quotes, and compared with its service's grade, as a
// reader would compare one document's letter with the service's.
//
// The letter's cuts are chosen leaving one service out: each service's
// documents are graded with the cuts that score best (exact plus within
// one letter) on every other service's documents of both sets, so the
// printed numbers are not fitted to the service they grade. The cuts
// chosen on all are printed last: they are what analyze.GradeCuts ships.
//
//	go run ./cmd/eval-grades -data ../shared/data
//
// With -contradictions it instead analyzes the 544 corpus documents with
// the shipped engine, prints their letters (and those of the terms and
// privacy policies of 1,000 words or more) and counts the grades that
// contradict their findings (an A or B with a blocker finding, an A with a
// bad one, a D or E with neither).
package main

import (
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
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	data := flag.String("data", "../shared/data", "directory with tosdr/, tosdr-silver/ and corpus/")
	verbose := flag.Bool("v", false, "print each document's letter, balance and gold")
	contra := flag.Bool("contradictions", false, "instead, grade the corpus documents with the shipped engine and count the grades that contradict their findings")
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

func key(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "") }

// graded is one development document: its set (silver or dev), its
// service's key and grade, and the verdict of its findings.
type graded struct {
	set, service, name, docType, gold string
	v                                 analyze.Verdict
}

func run(data string, verbose bool) error {
	var dev []struct {
		Service, ToSDR, Grade string
	}
	if err := corpus.EachLine(filepath.Join(data, "tosdr", "dev-grades.jsonl"), func(b []byte) error {
		var d struct{ Service, Tosdr, Grade string }
		err := json.Unmarshal(b, &d)
		dev = append(dev, struct{ Service, ToSDR, Grade string }{d.Service, d.Tosdr, d.Grade})
		return err
	}); err != nil {
		return err
	}
	var silver []struct {
		Service, ToSDR, Grade string
	}
	if err := corpus.EachLine(filepath.Join(data, "tosdr-silver", "grades.jsonl"), func(b []byte) error {
		var d struct {
			Service, Tosdr string
			Grade          string `json:"silver_grade"`
		}
		err := json.Unmarshal(b, &d)
		silver = append(silver, struct{ Service, ToSDR, Grade string }{d.Service, d.Tosdr, d.Grade})
		return err
	}); err != nil {
		return err
	}
	// a service is one whichever set and spelling names it: the ToS;DR
	// slug where there is one
	svc := map[string]string{}
	held := map[string]bool{}
	for _, s := range slices.Concat(dev, silver) {
		svc[key(s.Service)], svc[key(s.ToSDR)] = s.ToSDR, s.ToSDR
		held[key(s.Service)], held[key(s.ToSDR)] = true, true
	}
	cd, err := train.ReadCaseData(data)
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
	judge := func(set string, d corpus.Doc, gold string) graded {
		dt := "terms"
		if d.Type != "Terms of Service" {
			dt = "privacy"
		}
		r := engine.Analyze(d.Text, analyze.Options{DocumentType: dt})
		return graded{set, svc[key(d.Service)], d.Service, dt, gold, analyze.Judge(analyze.GradeCuts, r.Findings)}
	}
	var docs []graded
	corpusDocs, err := corpus.Read(filepath.Join(data, "corpus", "documents.jsonl.gz"))
	if err != nil {
		return err
	}
	for _, s := range dev {
		for _, d := range corpusDocs {
			if d.Service == s.Service && slices.Contains(train.GradedTypes, d.Type) {
				docs = append(docs, judge("dev", d, s.Grade))
			}
		}
	}
	silverDocs, err := corpus.Read(filepath.Join(data, "tosdr-silver", "documents.jsonl.gz"))
	if err != nil {
		return err
	}
	for _, s := range silver {
		for _, d := range silverDocs {
			if d.Service == s.Service {
				docs = append(docs, judge("silver", d, s.Grade))
			}
		}
	}
	pred := loso(docs)
	services := map[string]bool{}
	for _, d := range docs {
		services[d.service] = true
	}
	fmt.Printf("%d documents of %d services; each graded with cuts fitted without its service\n", len(docs), len(services))
	fmt.Printf("%-34s %4s %5s %5s %6s  %s\n", "", "n", "rho", "±1", "exact", "letters (gold letters)")
	for _, set := range []string{"silver", "dev"} {
		for _, dt := range []string{"", "terms", "privacy"} {
			var g, p []string
			for i, d := range docs {
				if d.set == set && (dt == "" || d.docType == dt) {
					g, p = append(g, d.gold), append(p, pred[i])
				}
			}
			name := set + ", leave-one-service-out"
			if dt != "" {
				name = "  " + dt + " alone"
			}
			report(name, g, p)
		}
	}
	fmt.Printf("\nchosen on all services: %+v; shipped (analyze.GradeCuts): %+v\n", fit(docs), analyze.GradeCuts)
	for _, set := range []string{"silver", "dev"} {
		var g, p []string
		for _, d := range docs {
			if d.set == set {
				g, p = append(g, d.gold), append(p, d.v.Grade)
			}
		}
		report(set+", shipped cuts (in-sample)", g, p)
	}
	if verbose {
		for i, d := range docs {
			fmt.Printf("  %-6s %-28s %-8s gold %s  loso %s  shipped %s  balance %6.1f ± %4.1f  %+v\n", d.set, d.name, d.docType, d.gold, pred[i], d.v.Grade, d.v.Balance, d.v.Spread, d.v.Basis)
		}
	}
	return nil
}

// grid is every set of cuts the letter's are chosen from: C from -1 to
// -15, D from C to -30, E from D to -50, one unit apart.
var grid = func() []analyze.Cuts {
	var out []analyze.Cuts
	for c := -1.0; c >= -15; c-- {
		for d := c; d >= -30; d-- {
			for e := d; e >= -50; e -= 2 {
				out = append(out, analyze.Cuts{E: e, D: d, C: c})
			}
		}
	}
	return out
}()

// fit returns the cuts that score best on docs (exact plus within one
// letter), the first in grid order on ties.
func fit(docs []graded) analyze.Cuts {
	best, bestScore := grid[0], -1
	for _, c := range grid {
		s := 0
		for _, d := range docs {
			s += agreement(d.gold, d.v.LetterWith(c))
		}
		if s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

// loso grades each service's documents with the cuts fitted on the other
// services' documents.
func loso(docs []graded) []string {
	pred := make([]string, len(docs))
	cuts := map[string]analyze.Cuts{}
	for i, d := range docs {
		c, ok := cuts[d.service]
		if !ok {
			c = fit(slices.DeleteFunc(slices.Clone(docs), func(o graded) bool { return o.service == d.service }))
			cuts[d.service] = c
		}
		pred[i] = d.v.LetterWith(c)
	}
	return pred
}

func rank(l string) int { return int(l[0] - 'A') }

// agreement is 2 for the same letter, 1 for one letter apart, else 0.
func agreement(gold, pred string) int {
	switch d := rank(gold) - rank(pred); {
	case d == 0:
		return 2
	case d == 1 || d == -1:
		return 1
	}
	return 0
}

func report(name string, gold, pred []string) {
	exact, within := 0, 0
	dist, goldDist := map[string]int{}, map[string]int{}
	for i := range gold {
		a := agreement(gold[i], pred[i])
		if a == 2 {
			exact++
		}
		if a >= 1 {
			within++
		}
		dist[pred[i]]++
		goldDist[gold[i]]++
	}
	n := float64(len(gold))
	var ds []string
	for _, l := range []string{"A", "B", "C", "D", "E"} {
		ds = append(ds, fmt.Sprintf("%s %d (%d)", l, dist[l], goldDist[l]))
	}
	fmt.Printf("%-34s %4d %5.2f %4.0f%% %5.0f%%  %s\n", name, len(gold), spearman(gold, pred), 100*float64(within)/n, 100*float64(exact)/n, strings.Join(ds, ", "))
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
