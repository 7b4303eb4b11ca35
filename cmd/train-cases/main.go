// Command train-cases rebuilds the embedded ToS;DR case detector
// (internal/analyze/model/cases.gob.gz) from shared/data/tosdr and the
// CLAUDETTE sentences of shared/data/clauses (negatives for the cases of
// the eight clause categories only; see train.TrainCases). It prints each
// case's service-grouped cross-validated precision, recall and F1 on the
// quotes. The output is byte-for-byte deterministic.
//
//	go run ./cmd/train-cases -data ../shared/data
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	data := flag.String("data", "../shared/data", "directory with tosdr/ and clauses/")
	out := flag.String("out", "internal/analyze/model/cases.gob.gz", "model file to write")
	flag.Parse()
	if err := run(*data, *out); err != nil {
		fmt.Fprintln(os.Stderr, "train-cases:", err)
		os.Exit(1)
	}
}

func run(data, out string) error {
	d, err := train.ReadCaseData(data)
	if err != nil {
		return err
	}
	cfg := train.CaseConfig
	m, ev := train.TrainCases(d.ToSDR, d.Clauses, d.Corpus, cfg, func(string) bool { return false })
	m = train.RaiseBlockers(m, train.BlockerOffset)
	fmt.Printf("%-90s %7s %6s %6s %6s\n", "case", "support", "P", "R", "F1")
	for _, c := range ev.Columns {
		fmt.Printf("%-90.90s %7d %6.1f %6.1f %6.1f\n", c.Label, c.Support, c.P, c.R, c.F1)
	}
	m.Notes = fmt.Sprintf("%d cases; %s; service-grouped %d-fold CV on the quotes (thresholds held out too): micro-F1 %.1f, macro-F1 %.1f", len(m.Cases), cfg, cfg.Folds, ev.Micro, ev.MacroF1)
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes, %d features, %d weights): %s\n", out, buf.Len(), len(m.Buckets), len(m.W), m.Notes)
	return nil
}
