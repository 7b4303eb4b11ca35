// Command eval-cases works with the labelled sentences of
// internal/analyze/testdata/cases: it prints the sample they are drawn from
// (-sample), locates ToS;DR's quotes in the corpus documents (-points) and,
// by default, checks the labels against the guidelines' vocabulary and
// cases.tsv and reports what they hold: sentences by kind, actor and
// modality, and per case the labelled sentences and the documents and
// services they come from; then it scores the analyzer's case findings
// against them, sentence by sentence (score.go): per case precision and
// recall, good-case precision, the weighty practices' recall, findings on
// sentences that are not clauses and on the user's clauses. The shipped
// analyzer is scored first (optimistic: its case model was trained on some
// of these services' ToS;DR quotes), then, cross-validated by service, each
// fold of services by a case model trained without them (-folds 0 skips
// that: it trains the case model once a fold, the slow part). Last comes
// how the analyzer reads the sentences apart from their cases (reading.go):
// who a clause binds and how, which sentences are no clauses, what the
// gate drops; -reading reports only that.
//
//	go run ./cmd/eval-cases -data ../shared/data
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	labels := flag.String("labels", "internal/analyze/testdata/cases/labels.jsonl", "labelled sentences")
	data := flag.String("data", "../shared/data", "directory with corpus/ and tosdr/")
	sample := flag.Bool("sample", false, "print the unlabelled sample (the order of labels.jsonl) and exit")
	points := flag.Bool("points", false, "print the ToS;DR points located in corpus documents (points.jsonl) and exit")
	folds := flag.Int("folds", 5, "folds of services for the cross-validated score (0: the shipped analyzer only)")
	reading := flag.Bool("reading", false, "report only how the shipped analyzer reads the labelled sentences (actor, modality, kind, gate); -dump then writes the read services' sentences")
	flag.StringVar(&dumpPath, "dump", "", "write the shipped analyzer's scored sentences (fold, label, cases found, reading) to this JSON-lines file")
	agree := flag.String("agree", "", "print the agreement (Cohen's kappa per field) of this second labelling pass with -labels and exit (testdata/cases/second-pass.jsonl)")
	flag.StringVar(&calibratePath, "calibrate", "", "write every finding's calibrated probability by case, cross-validated by service, to this file (internal/analyze/calibration.tsv)")
	flag.Parse()
	var err error
	switch {
	case *sample:
		err = writeSample(os.Stdout, *data)
	case *points:
		err = writePoints(os.Stdout, *data)
	case *agree != "":
		err = runAgreement(os.Stdout, *labels, *agree, *data)
	default:
		err = run(os.Stdout, *labels, *data, *folds, *reading)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-cases:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, path, data string, folds int, reading bool) error {
	ls, rating, err := readCheckedLabels(path, data)
	if err != nil {
		return err
	}
	report(w, ls)
	if reading {
		return readingReport(w, ls, data, dumpPath)
	}
	if err := score(w, ls, data, rating, folds); err != nil {
		return err
	}
	return readingReport(w, ls, data, "")
}

// report prints the counts of the labels.
func report(w io.Writer, ls []Label) {
	docs, services := map[string]bool{}, map[string]bool{}
	kind, actor, modality := map[string]int{}, map[string]int{}, map[string]int{}
	type caseCount struct {
		title, rating  string
		n              int
		docs, services map[string]bool
	}
	cases := map[string]*caseCount{}
	for _, l := range ls {
		docs[l.Source], services[l.Service] = true, true
		kind[l.Kind]++
		if l.Kind == "clause" {
			actor[l.Actor]++
			m := l.Modality
			if l.Negated {
				m += " (negated)"
			}
			modality[m]++
		}
		if l.Case == "" {
			continue
		}
		c := cases[l.Case]
		if c == nil {
			c = &caseCount{title: l.Case, rating: l.Rating, docs: map[string]bool{}, services: map[string]bool{}}
			cases[l.Case] = c
		}
		c.n++
		c.docs[l.Source], c.services[l.Service] = true, true
	}
	fmt.Fprintf(w, "%d sentences, %d documents, %d services\n", len(ls), len(docs), len(services))
	for _, t := range []struct {
		name string
		m    map[string]int
	}{{"kind", kind}, {"clause actor", actor}, {"clause modality", modality}} {
		fmt.Fprintf(w, "\n%s\n", t.name)
		keys := make([]string, 0, len(t.m))
		for k := range t.m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Or(t.m[b]-t.m[a], cmp.Compare(a, b)) })
		for _, k := range keys {
			fmt.Fprintf(w, "  %-20s %5d\n", k, t.m[k])
		}
	}
	var cs []*caseCount
	for _, c := range cases {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b *caseCount) int { return cmp.Or(b.n-a.n, cmp.Compare(a.title, b.title)) })
	fmt.Fprintf(w, "\n%d cases  (sentences, documents, services, rating, case)\n", len(cs))
	for _, c := range cs {
		fmt.Fprintf(w, "  %4d %3d %3d  %-8s %s\n", c.n, len(c.docs), len(c.services), c.rating, c.title)
	}
}

// readCheckedLabels reads the labels at path and checks them against the
// guidelines' vocabulary and cases.tsv, whose ratings it returns too.
func readCheckedLabels(path, data string) ([]Label, map[string]string, error) {
	ls, err := readLabels(path)
	if err != nil {
		return nil, nil, err
	}
	d, err := train.ReadToSDR(filepath.Join(data, "tosdr"))
	if err != nil {
		return nil, nil, err
	}
	rating := caseRatings(d)
	for _, l := range ls {
		if err := l.check(rating); err != nil {
			return nil, nil, fmt.Errorf("%s: %s sentence %d: %w", path, l.Source, l.Sentence, err)
		}
	}
	return ls, rating, nil
}
