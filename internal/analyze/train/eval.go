package train

import (
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// PRF is precision, recall and F1 of one column, in percent.
type PRF struct {
	Label      string
	Support    int
	P, R, F1   float64
	TP, FP, FN int
}

// Metrics are LexGLUE UNFAIR-ToS scores, in percent.
type Metrics struct {
	Micro9, Macro9, Macro8 float64
	Columns                []PRF // the eight labels then "none"
}

// Evaluate scores predictions against gold labels the way LexGLUE does:
// a ninth "none" column for sentences without labels, sklearn micro/macro F1.
func Evaluate(gold, pred [][]string) Metrics {
	cols := append(slices.Clone(analyze.ClauseLabels), "none")
	var m Metrics
	var stp, sfp, sfn int
	for _, lab := range cols {
		c := PRF{Label: lab}
		for i := range gold {
			g := has(gold[i], lab)
			p := has(pred[i], lab)
			if g {
				c.Support++
			}
			switch {
			case g && p:
				c.TP++
			case p:
				c.FP++
			case g:
				c.FN++
			}
		}
		if c.TP+c.FP > 0 {
			c.P = 100 * float64(c.TP) / float64(c.TP+c.FP)
		}
		if c.TP+c.FN > 0 {
			c.R = 100 * float64(c.TP) / float64(c.TP+c.FN)
		}
		if 2*c.TP+c.FP+c.FN > 0 {
			c.F1 = 100 * 2 * float64(c.TP) / float64(2*c.TP+c.FP+c.FN)
		}
		stp += c.TP
		sfp += c.FP
		sfn += c.FN
		m.Columns = append(m.Columns, c)
	}
	for k, c := range m.Columns {
		m.Macro9 += c.F1 / 9
		if k < 8 {
			m.Macro8 += c.F1 / 8
		}
	}
	m.Micro9 = 100 * 2 * float64(stp) / float64(2*stp+sfp+sfn)
	return m
}

func has(labels []string, lab string) bool {
	if lab == "none" {
		return len(labels) == 0
	}
	return slices.Contains(labels, lab)
}
