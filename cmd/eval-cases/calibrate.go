package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// calibratePath is -calibrate's file: every finding's calibrated
// probability by case (internal/analyze/calibration.tsv).
var calibratePath string

// evidence is one finding on a labelled sentence: its calibration key
// (analyze.CalibrationKey), its rating, and whether the sentence states
// its case with its rating. A case finding is right when the sentence is
// labelled with its case; a finding of a category alone (no case to
// compare) when the sentence is labelled with a case of its side, good or
// bad (a blocker is on the bad side).
type evidence struct {
	service, key, rating string
	right                bool
}

// side is a rating's side: good, neutral, or bad (bad and blocker).
func side(rating string) string {
	if rating == analyze.SeverityBlocker {
		return analyze.SeverityBad
	}
	return rating
}

// evidenceOf lists the findings on the scored sentences (summary sentences
// left out, as for precision).
func evidenceOf(ss []scored) []evidence {
	var out []evidence
	for _, s := range ss {
		if ignored(s) {
			continue
		}
		for _, f := range s.findings {
			right := s.Case != "" && (f.Case == s.Case || f.Case == "" && side(s.Rating) == side(f.Severity))
			out = append(out, evidence{s.Service, analyze.CalibrationKey(f), f.Severity, right})
		}
	}
	return out
}

// table is a calibration: per key, found and right; per rating, the
// pooled numbers every key is shrunk toward.
type table struct {
	keys   map[string]*tally2
	rating map[string]*tally2
	k      float64
}

type tally2 struct {
	rating       string
	found, right int
}

func fit(ev []evidence, k float64) table {
	t := table{keys: map[string]*tally2{}, rating: map[string]*tally2{}, k: k}
	for _, e := range ev {
		for _, m := range []struct {
			m   map[string]*tally2
			key string
		}{{t.keys, e.key}, {t.rating, e.rating}} {
			n := m.m[m.key]
			if n == nil {
				n = &tally2{rating: e.rating}
				m.m[m.key] = n
			}
			n.found++
			if e.right {
				n.right++
			}
		}
	}
	return t
}

// prior is a rating's pooled precision, with one right and one wrong
// finding added so that an unseen rating is not certain either way.
func (t table) prior(rating string) float64 {
	n := t.rating[rating]
	if n == nil {
		return 0.5
	}
	return (float64(n.right) + 1) / (float64(n.found) + 2)
}

// p is a key's precision shrunk toward its rating's: k findings' worth of
// the prior, so a case found twice says little and one found forty times
// says much.
func (t table) p(key, rating string) float64 {
	pr := t.prior(rating)
	n := t.keys[key]
	if n == nil {
		return pr
	}
	return (float64(n.right) + t.k*pr) / (float64(n.found) + t.k)
}

// shrinkages are the prior strengths k is chosen from, by leaving one
// service out.
var shrinkages = []float64{1, 2, 4, 8, 16, 32}

// loso gives every finding the probability a table fitted on the other
// services' findings gives it.
func loso(ev []evidence, k float64) []float64 {
	out := make([]float64, len(ev))
	byService := map[string]table{}
	for i, e := range ev {
		t, ok := byService[e.service]
		if !ok {
			t = fit(slices.DeleteFunc(slices.Clone(ev), func(o evidence) bool { return o.service == e.service }), k)
			byService[e.service] = t
		}
		out[i] = t.p(e.key, e.rating)
	}
	return out
}

// logLoss is the mean negative log-likelihood of the outcomes under ps.
func logLoss(ev []evidence, ps []float64) float64 {
	s := 0.0
	for i, e := range ev {
		p := min(max(ps[i], 1e-3), 1-1e-3)
		if e.right {
			s -= math.Log(p)
		} else {
			s -= math.Log(1 - p)
		}
	}
	return s / float64(len(ev))
}

// calibrate chooses the shrinkage by leaving one service out, prints the
// reliability of the probabilities so given (each service's from a table
// fitted without it) and, with -calibrate, writes the table fitted on the
// findings of every service but the graded ones: the grade evaluation
// (cmd/eval-grades) scores those services' documents with the shipped
// table, which must not have seen their labels.
func calibrate(w io.Writer, ss []scored, graded map[string]bool) error {
	ev := evidenceOf(ss)
	if len(ev) == 0 {
		return fmt.Errorf("no findings on the labelled sentences to calibrate with")
	}
	fmt.Fprintf(w, "\n== calibration: %d findings on labelled sentences, each given the probability of a table fitted without its service\n", len(ev))
	bestK, best := shrinkages[0], math.Inf(1)
	for _, k := range shrinkages {
		ll := logLoss(ev, loso(ev, k))
		fmt.Fprintf(w, "  shrinkage %4g: log loss %.4f\n", k, ll)
		if ll < best {
			bestK, best = k, ll
		}
	}
	ps := loso(ev, bestK)
	fmt.Fprintf(w, "chosen shrinkage %g; reliability (leave-one-service-out):\n", bestK)
	reliability(w, ev, ps)
	for _, r := range []string{analyze.SeverityGood, analyze.SeverityBad, analyze.SeverityBlocker, analyze.SeverityNeutral} {
		var sub []evidence
		var sp []float64
		for i, e := range ev {
			if e.rating == r {
				sub, sp = append(sub, e), append(sp, ps[i])
			}
		}
		if len(sub) > 0 {
			fmt.Fprintf(w, "  %s findings:\n", r)
			reliability(w, sub, sp)
		}
	}
	if calibratePath == "" {
		return nil
	}
	shipped := slices.DeleteFunc(ev, func(e evidence) bool { return graded[strings.ToLower(e.service)] })
	fmt.Fprintf(w, "the written table: %d findings, leaving out the %d of the graded services\n", len(shipped), len(ps)-len(shipped))
	return writeTable(calibratePath, fit(shipped, bestK))
}

// reliability prints predicted against observed precision in five bins.
func reliability(w io.Writer, ev []evidence, ps []float64) {
	const bins = 5
	var n, right [bins]int
	var sum [bins]float64
	brier := 0.0
	for i, e := range ev {
		b := min(int(ps[i]*bins), bins-1)
		n[b]++
		sum[b] += ps[i]
		o := 0.0
		if e.right {
			right[b]++
			o = 1
		}
		brier += (ps[i] - o) * (ps[i] - o)
	}
	for b := range bins {
		if n[b] == 0 {
			continue
		}
		fmt.Fprintf(w, "    p %.1f-%.1f: %5d findings, predicted %.2f, right %s\n", float64(b)/bins, float64(b+1)/bins, n[b], sum[b]/float64(n[b]), frac(right[b], n[b]))
	}
	fmt.Fprintf(w, "    Brier score %.3f over %d findings\n", brier/float64(len(ev)), len(ev))
}

// writeTable writes the calibration internal/analyze embeds: per key its
// rating, found, right and probability, then one line per rating for keys
// the labelled set never saw.
func writeTable(path string, t table) error {
	keys := make([]string, 0, len(t.keys))
	for k := range t.keys {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(t.keys[b].found-t.keys[a].found, cmp.Compare(a, b))
	})
	var b strings.Builder
	b.WriteString("# Calibrated probability that a finding's sentence states its case with its rating, from the findings on\n")
	b.WriteString("# internal/analyze/testdata/cases/labels.jsonl of case models cross-validated by service; a key's precision is\n")
	fmt.Fprintf(&b, "# shrunk toward its rating's with %g findings' weight (chosen leaving one service out). Keys: a ToS;DR case title,\n", t.k)
	b.WriteString("# or category:<name> for a finding of a category alone; * is the rating's own, for keys never found there.\n")
	b.WriteString("# Written by: go run ./cmd/eval-cases -data ../shared/data -calibrate internal/analyze/calibration.tsv\n")
	b.WriteString("key\trating\tfound\tright\tprobability\n")
	for _, k := range keys {
		n := t.keys[k]
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\t%.3f\n", k, n.rating, n.found, n.right, t.p(k, n.rating))
	}
	for _, r := range []string{analyze.SeverityBlocker, analyze.SeverityBad, analyze.SeverityNeutral, analyze.SeverityGood} {
		n := t.rating[r]
		if n == nil {
			n = &tally2{}
		}
		fmt.Fprintf(&b, "*\t%s\t%d\t%d\t%.3f\n", r, n.found, n.right, t.prior(r))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
