// Command eval-clauses scores the embedded unfair-clause model on
// validation.jsonl with the LexGLUE UNFAIR-ToS protocol: micro- and macro-F1
// over nine columns (the eight categories plus "none"), the eight-category
// macro-F1, and per-category precision, recall and F1.
//
//	go run ./cmd/eval-clauses -data ../shared/data/clauses
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/model"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	data := flag.String("data", "../shared/data/clauses", "directory with validation.jsonl")
	file := flag.String("file", "validation.jsonl", "file to score, inside -data")
	raw := flag.Bool("raw", false, "also score on crudely de-tokenised text (raw-text robustness)")
	modelFile := flag.String("model", "", "score this model file instead of the embedded model")
	newer := flag.Bool("newer", false, "also score newer.jsonl by company: company-grouped cross-validation on train+newer with the shipped configuration")
	flag.Parse()
	engine, err := newEngine(*modelFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-clauses:", err)
		os.Exit(1)
	}
	classify := engine.Classify
	exs, err := train.ReadExamples(filepath.Join(*data, *file))
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-clauses:", err)
		os.Exit(1)
	}
	if *modelFile == "" {
		fmt.Println("model:", engine.Notes())
	}
	report(*file, exs, classify, func(s string) string { return s })
	if *raw {
		report(*file+" (de-tokenised)", exs, classify, detokenize)
	}
	if *newer {
		if err := newerByCompany(*data); err != nil {
			fmt.Fprintln(os.Stderr, "eval-clauses:", err)
			os.Exit(1)
		}
	}
}

// newEngine is the embedded models' engine, with the clause model read
// from file instead when file is not empty.
func newEngine(file string) (*analyze.Engine, error) {
	ms, err := analyze.Embedded()
	if err != nil || file == "" {
		return analyze.Load()
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if ms.Clauses, err = model.DecodeModel(f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	fmt.Println("model file:", file, ms.Clauses.Notes)
	return analyze.New(ms)
}

// newerByCompany scores newer.jsonl without training on the company scored:
// the embedded model has seen all of newer.jsonl, so the score comes from a
// company-grouped cross-validation of train+newer (a company's older and
// newer terms in the same fold, thresholds held out too).
func newerByCompany(data string) error {
	d, err := train.ReadClauseData(data)
	if err != nil {
		return err
	}
	all := slices.Concat(d.Train, d.Newer)
	_, honest := train.TrainCV(all, train.ClauseConfig)
	pred := honest[len(d.Train):]
	m := train.Evaluate(train.Labels(d.Newer), pred)
	fmt.Printf("\nnewer.jsonl, company-grouped CV on train+newer (%s): %d sentences\n", train.ClauseConfig, len(d.Newer))
	fmt.Printf("LexGLUE micro-F1 (9 columns): %.1f\nLexGLUE macro-F1 (9 columns): %.1f\nmacro-F1 (8 categories):      %.1f\n", m.Micro9, m.Macro9, m.Macro8)
	fmt.Printf("%-26s %7s %6s %6s %6s\n", "category", "support", "P", "R", "F1")
	for _, c := range m.Columns {
		fmt.Printf("%-26s %7d %6.1f %6.1f %6.1f\n", c.Label, c.Support, c.P, c.R, c.F1)
	}
	return nil
}

func report(name string, exs []train.Example, classify func(string) []string, f func(string) string) {
	var gold, pred [][]string
	for _, e := range exs {
		gold = append(gold, e.Labels)
		pred = append(pred, classify(f(e.Text)))
	}
	m := train.Evaluate(gold, pred)
	fmt.Printf("\n%s: %d sentences\n", name, len(exs))
	fmt.Printf("LexGLUE micro-F1 (9 columns): %.1f\n", m.Micro9)
	fmt.Printf("LexGLUE macro-F1 (9 columns): %.1f\n", m.Macro9)
	fmt.Printf("macro-F1 (8 categories):      %.1f\n", m.Macro8)
	fmt.Printf("%-26s %7s %6s %6s %6s\n", "category", "support", "P", "R", "F1")
	for _, c := range m.Columns {
		fmt.Printf("%-26s %7d %6.1f %6.1f %6.1f\n", c.Label, c.Support, c.P, c.R, c.F1)
	}
}

// detokenize undoes the CoreNLP tokenisation roughly, so the score shows how
// the classifier does on text as the service sees it.
func detokenize(s string) string {
	r := strings.NewReplacer(" n't", "n't", " 's", "'s", " 're", "'re", " 'll", "'ll", " ,", ",", " .", ".", " ;", ";", " :", ":", "( ", "(", " )", ")", "`` ", "\"", " ''", "\"")
	s = r.Replace(s)
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}
