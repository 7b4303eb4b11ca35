// Command train-privacy rebuilds the embedded privacy-practice detector
// (internal/analyze/model/privacy.gob.gz) from the labelled paragraphs of
// internal/analyze/testdata/privacy and ToS;DR's quotes mapped to our
// categories (see train.TrainPrivacy). It
// prints each category's policy-grouped cross-validated precision, recall
// and F1 on the labelled paragraphs, the model alone. The output is
// byte-for-byte deterministic.
//
//	go run ./cmd/train-privacy -data ../shared/data
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	data := flag.String("data", "../shared/data", "directory with tosdr/")
	labels := flag.String("labels", "internal/analyze/testdata/privacy/labels.jsonl", "labelled paragraphs")
	out := flag.String("out", "internal/analyze/model/privacy.gob.gz", "model file to write")
	flag.Parse()
	if err := run(*data, *labels, *out); err != nil {
		fmt.Fprintln(os.Stderr, "train-privacy:", err)
		os.Exit(1)
	}
}

func run(data, labels, out string) error {
	tosdr, err := train.ReadToSDR(filepath.Join(data, "tosdr"))
	if err != nil {
		return err
	}
	ps, err := train.ReadPrivacyLabels(labels)
	if err != nil {
		return err
	}
	cfg := train.PrivacyConfig
	m, ev := train.TrainPrivacy(tosdr, ps, cfg, func(string) bool { return false })
	fmt.Printf("%-24s %7s %6s %6s %6s\n", "category", "support", "P", "R", "F1")
	for _, c := range ev.Columns {
		fmt.Printf("%-24s %7d %6.1f %6.1f %6.1f\n", c.Label, c.Support, c.P, c.R, c.F1)
	}
	m.Notes = fmt.Sprintf("%s; policy-grouped %d-fold CV on %d labelled paragraphs (thresholds held out too), the model alone: micro-F1 %.1f, macro-F1 %.1f", cfg, cfg.Folds, len(ps), ev.Micro, ev.MacroF1)
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes, %d features, %d weights): %s\n", out, buf.Len(), len(m.Weights.Buckets), len(m.Weights.W), m.Notes)
	return nil
}
