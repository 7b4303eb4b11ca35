package train

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// PrivacyParagraph is one labelled paragraph of
// internal/analyze/testdata/privacy/labels.jsonl.
type PrivacyParagraph struct {
	Service   string   `json:"service"`
	Source    string   `json:"source"` // the corpus document: the policy
	Paragraph int      `json:"paragraph"`
	SHA256    string   `json:"sha256"`
	Text      string   `json:"text"`
	Labels    []string `json:"labels"`
}

// ReadPrivacyLabels reads the labelled paragraphs and checks their labels
// are privacy categories.
func ReadPrivacyLabels(path string) ([]PrivacyParagraph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ps []PrivacyParagraph
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var p PrivacyParagraph
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		for _, l := range p.Labels {
			if !slices.Contains(analyze.PrivacyCategories, l) {
				return nil, fmt.Errorf("%s:%d: unknown category %q", path, n, l)
			}
		}
		ps = append(ps, p)
	}
	return ps, sc.Err()
}

// PrivacyConfig is the privacy detector's configuration, chosen by
// eval-privacy's policy-grouped cross-validation: word unigrams and bigrams
// (character n-grams and word trigrams changed micro-F1 by under a point,
// within the folds' noise, at a cost in speed), positives weighing twice
// the negatives (a point of micro-F1 above weighing them alike).
var PrivacyConfig = TrainConfig{
	Features: model.FeatureConfig{Bits: 20, WordNgrams: 2},
	MinDF:    2, C: 0.5, PosWeight: 2, Epochs: 40, Folds: 5, Seed: 11,
}

// labelledWeight is how much more a labelled paragraph weighs than a quote:
// it is the kind of text the detector reads, and labelled for every
// category. Under cross-validation 4 scored about a point of micro-F1
// above 1; 2 and 8 scored like 4.
const labelledWeight = 4

// minPrivacyPrecision is the precision each category's threshold must keep
// on the cross-validated paragraphs where some threshold can.
const minPrivacyPrecision = 0.75

// privacyRow is one training text of the privacy detector.
type privacyRow struct {
	group  string // fold group: the policy or the ToS;DR service
	text   string
	labels []int // privacy category indices
}

// privacyRows builds the training rows: the labelled paragraphs first, in
// order and fully labelled, and every usable ToS;DR quote of a case that cases.tsv maps to
// one of our categories, positive for the privacy categories of its cases
// and negative for the others (a quote of "the service tracks you on other
// websites" is evidence of tracking and, quoted for it, of nothing else the
// reviewers noticed). Quotes of unmapped cases say nothing about our
// categories and are left out, and so are the CLAUDETTE sentences: nobody
// read them for privacy practices, and as negatives they cost about a point
// of micro-F1 under cross-validation (more on the small categories). skip
// leaves ToS;DR services out by name (case-insensitive).
func privacyRows(d ToSDR, labelled []PrivacyParagraph, skip func(service string) bool) []privacyRow {
	catOf := map[string]string{}
	for _, c := range d.Cases {
		catOf[c.Title] = c.Category
	}
	var rows []privacyRow
	for _, p := range labelled {
		row := privacyRow{group: "policy:" + p.Source, text: p.Text}
		for _, l := range p.Labels {
			row.labels = append(row.labels, slices.Index(analyze.PrivacyCategories, l))
		}
		rows = append(rows, row)
	}
	byText := map[string]int{}
	for _, p := range d.Points {
		cat := catOf[p.Case]
		if cat == "" || !usable(p) || skip(p.Service) {
			continue
		}
		key := p.Service + "\x00" + strings.Join(analyze.Normalize(p.Quote), " ")
		r, ok := byText[key]
		if !ok {
			r = len(rows)
			byText[key] = r
			rows = append(rows, privacyRow{group: "tosdr:" + strings.ToLower(p.Service), text: p.Quote})
		}
		if j := slices.Index(analyze.PrivacyCategories, cat); j >= 0 && !slices.Contains(rows[r].labels, j) {
			rows[r].labels = append(rows[r].labels, j)
		}
	}
	return rows
}

// PrivacyEval is the policy-grouped cross-validated quality of the model
// alone on the labelled paragraphs.
type PrivacyEval struct {
	Columns        []PRF
	Micro, MacroF1 float64
}

// TrainPrivacy fits the privacy detector: one linear SVM per category on
// privacyRows. The analyzer decides a category on a whole paragraph (with
// its heading and list items), as the labels are made, so each category's
// threshold is chosen on policy-grouped cross-validated paragraph margins,
// as the one with the best F1 among those keeping minPrivacyPrecision; the
// returned evaluation holds each fold out of the threshold's choice too.
// skip leaves ToS;DR services out of training (eval-privacy holds out the
// services it scores). The result is deterministic.
func TrainPrivacy(d ToSDR, labelled []PrivacyParagraph, cfg TrainConfig, skip func(service string) bool) (*model.PrivacyModel, PrivacyEval) {
	rows := privacyRows(d, labelled, skip)
	fc := cfg.Features
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = r.text
	}
	X, buckets, idf := vectorize(&fc, texts, cfg.MinDF)
	nc := len(analyze.PrivacyCategories)
	Y := make([][]float64, nc)
	for j := range nc {
		Y[j] = make([]float64, len(rows))
		for i, r := range rows {
			Y[j][i] = -1
			if slices.Contains(r.labels, j) {
				Y[j][i] = 1
			}
		}
	}
	fold := GroupFolds(rows, func(r privacyRow) string { return r.group }, cfg.Folds)
	// The labelled paragraphs are the first rows: their out-of-fold
	// margins, gold labels and folds are the first n of each.
	n := len(labelled)
	weight := make([]float64, len(rows))
	all := make([]int, len(rows))
	for i := range rows {
		weight[i], all[i] = 1, i
		if i < n {
			weight[i] = labelledWeight
		}
	}
	use := slices.Repeat([][]int{all}, nc)
	res := fitLabels(X, Y, use, fold, len(buckets), cfg, weight)
	paras, paraFold := all[:n], fold[:n]
	var ev PrivacyEval
	var stp, sfp, sfn int
	sw := model.SparseWeights{Features: fc, Buckets: buckets, IDF: idf}
	for j, cat := range analyze.PrivacyCategories {
		oof, gold := res[j].oof[:n], Y[j][:n]
		col := heldOutPRF(cat, oof, gold, paras, paraFold, cfg.Folds, func(other []int) float64 {
			return privacyThreshold(oof, gold, other)
		})
		stp, sfp, sfn = stp+col.TP, sfp+col.FP, sfn+col.FN
		ev.Columns = append(ev.Columns, col)
		ev.MacroF1 += col.F1 / float64(nc)
		sw.Bias = append(sw.Bias, float32(res[j].b))
		sw.Thr = append(sw.Thr, float32(privacyThreshold(oof, gold, paras)))
	}
	_, _, ev.Micro = prf(stp, sfp, sfn)
	sw.Ptr, sw.Out, sw.W = sparseRows(res, len(buckets))
	m := &model.PrivacyModel{Version: 1, Categories: slices.Clone(analyze.PrivacyCategories), Weights: sw}
	return m, ev
}

// privacyThreshold is the threshold with the best F1 on rows among those
// keeping minPrivacyPrecision, or the best F1 where none does.
func privacyThreshold(score, y []float64, rows []int) float64 {
	grid := thresholdGrid()
	f1 := f1Grid(score, y, rows, grid)
	best, bestOK := -1, -1
	for g, t := range grid {
		tp, fp := 0, 0
		for _, i := range rows {
			if score[i] >= t {
				if y[i] > 0 {
					tp++
				} else {
					fp++
				}
			}
		}
		if best < 0 || f1[g] > f1[best] {
			best = g
		}
		if tp > 0 && float64(tp) >= minPrivacyPrecision*float64(tp+fp) && (bestOK < 0 || f1[g] > f1[bestOK]) {
			bestOK = g
		}
	}
	if bestOK >= 0 {
		return grid[bestOK]
	}
	return grid[best]
}
