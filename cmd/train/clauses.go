package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// grid is the hyper-parameter grid the clause model is chosen from.
func grid(quick bool) []train.TrainConfig {
	base := train.ClauseConfig
	if quick {
		return []train.TrainConfig{base}
	}
	var g []train.TrainConfig
	for _, c := range []float64{0.25, 0.5, 1} {
		for _, pw := range []float64{1, 2} {
			cfg := base
			cfg.C, cfg.PosWeight = c, pw
			g = append(g, cfg)
		}
	}
	return g
}

// trainClauses rebuilds the unfair-clause model (see the package comment).
func trainClauses(o options, out string) error {
	d, err := train.ReadClauseData(filepath.Join(o.data, "clauses"))
	if err != nil {
		return err
	}
	cvSet := slices.Concat(d.Train, d.Newer)
	var best train.TrainConfig
	bestScore := -1.0
	var bestLine string
	for _, cfg := range grid(o.quick) {
		_, honest := train.TrainCV(cvSet, cfg)
		cv := train.Evaluate(train.Labels(cvSet), honest)
		nw := train.Evaluate(train.Labels(d.Newer), honest[len(d.Train):])
		line := fmt.Sprintf("%s; company-grouped CV on train+newer macro9 %.1f, on the newer rows macro9 %.1f", cfg, cv.Macro9, nw.Macro9)
		fmt.Println(line)
		if cv.Macro9 > bestScore {
			best, bestScore, bestLine = cfg, cv.Macro9, line
		}
	}
	all := slices.Concat(d.Train, d.Validation, d.Newer)
	m, _ := train.TrainCV(all, best)
	m.Notes = fmt.Sprintf("trained on %d sentences (train %d, validation %d, newer %d); selected by %s", len(all), len(d.Train), len(d.Validation), len(d.Newer), bestLine)
	n, err := write(out, m)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes, %d features): %s\n", out, n, len(m.Buckets), m.Notes)
	return nil
}
