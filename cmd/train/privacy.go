package main

import (
	"fmt"
	"path/filepath"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// trainPrivacy rebuilds the privacy-practice detector (see the package
// comment).
func trainPrivacy(o options, out string) error {
	tosdr, err := train.ReadToSDR(filepath.Join(o.data, "tosdr"))
	if err != nil {
		return err
	}
	ps, err := train.ReadPrivacyLabels(o.labels)
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
	n, err := write(out, m)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes, %d features, %d weights): %s\n", out, n, len(m.Weights.Buckets), len(m.Weights.W), m.Notes)
	return nil
}
