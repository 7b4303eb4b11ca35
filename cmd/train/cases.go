package main

import (
	"fmt"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// trainCases rebuilds the ToS;DR case detector (see the package comment).
func trainCases(o options, out string) error {
	d, err := train.ReadCaseData(o.data)
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
	n, err := write(out, m)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes, %d features, %d weights): %s\n", out, n, len(m.Buckets), len(m.W), m.Notes)
	return nil
}
