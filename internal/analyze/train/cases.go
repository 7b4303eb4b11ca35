package train

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// Point is one ToS;DR point of shared/data/tosdr/points.jsonl.
type Point struct {
	ID             string `json:"id"`
	Service        string `json:"service"`
	Case           string `json:"case"`
	Classification string `json:"classification"`
	Quote          string `json:"quote"`
	Status         string `json:"status"`
	Lang           string `json:"lang"`
}

// CaseRow is one line of cases.tsv.
type CaseRow struct {
	Title, Rating, Category string
	Points                  int
}

// ToSDR is the ToS;DR data of shared/data/tosdr.
type ToSDR struct {
	Points []Point
	Cases  []CaseRow
}

// unratedCases are the cases ToS;DR's export gives no rating. We rate them
// bad, as ToS;DR rates the same practice in its rated cases ("The service
// can delete your account without prior notice and without a reason"), so
// that a change without notice and one with notice differ.
var unratedCases = map[string]string{
	"Terms may be changed any time at their discretion, without notice to the user":        analyze.SeverityBad,
	"The service can distribute your content through any media known now or in the future": analyze.SeverityBad,
	"This service can share your personal information to third parties":                    analyze.SeverityBad,
}

// ReadToSDR reads points.jsonl and cases.tsv of dir.
func ReadToSDR(dir string) (ToSDR, error) {
	var d ToSDR
	f, err := os.Open(filepath.Join(dir, "points.jsonl"))
	if err != nil {
		return d, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var p Point
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return d, fmt.Errorf("points.jsonl: %w", err)
		}
		d.Points = append(d.Points, p)
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "cases.tsv"))
	if err != nil {
		return d, err
	}
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		c := strings.Split(line, "\t")
		if i == 0 {
			continue
		}
		if len(c) < 5 {
			return d, fmt.Errorf("cases.tsv:%d: %d columns", i+1, len(c))
		}
		n, _ := strconv.Atoi(c[2])
		row := CaseRow{Title: c[0], Rating: c[1], Category: c[4], Points: n}
		if row.Rating == "" {
			row.Rating = unratedCases[row.Title]
		}
		d.Cases = append(d.Cases, row)
	}
	return d, nil
}

// minCaseQuotes is how many usable quotes a case needs to get a detector.
const minCaseQuotes = 10

// usable reports whether a point can train the case detector: English (or
// too short to tell), not declined by ToS;DR's curators, with a case.
func usable(p Point) bool {
	return p.Case != "" && p.Status != "declined" && (p.Lang == "en" || p.Lang == "") && strings.TrimSpace(p.Quote) != ""
}

// DetectedCases returns the cases a detector is trained for: those with at
// least ten usable quotes and a rating, most quoted first (ties by title).
func (d ToSDR) DetectedCases() []model.CaseInfo {
	n := map[string]int{}
	for _, p := range d.Points {
		if usable(p) {
			n[p.Case]++
		}
	}
	var out []model.CaseInfo
	for _, c := range d.Cases {
		if n[c.Title] >= minCaseQuotes && c.Rating != "" {
			out = append(out, model.CaseInfo{Title: c.Title, Rating: c.Rating, Category: c.Category})
		}
	}
	slices.SortStableFunc(out, func(a, b model.CaseInfo) int {
		if n[a.Title] != n[b.Title] {
			return n[b.Title] - n[a.Title]
		}
		return strings.Compare(a.Title, b.Title)
	})
	return out
}

// CaseConfig is the case detector's configuration: word unigrams and
// bigrams only, so scoring a sentence costs a few thousand additions.
var CaseConfig = TrainConfig{
	Features: model.FeatureConfig{Bits: 20, WordNgrams: 2},
	MinDF:    2, C: 0.5, PosWeight: 3, Epochs: 40, Folds: 5, Seed: 7,
}

// caseRow is one training text of the case detector.
type caseRow struct {
	group string // fold group: the ToS;DR service, or the CLAUDETTE company
	text  string
	cases []int // indices into the detected cases
	// clauseLabels are the CLAUDETTE labels of a clause sentence (nil for a
	// quote); clause reports whether the row is a CLAUDETTE sentence.
	clauseLabels []string
	clause       bool
}

// caseRows builds the training rows: every usable quote of a detected case
// (a text quoted for several cases is one row positive for each), and the
// CLAUDETTE sentences, which are negatives only for the cases mapped to a
// clause category they do not carry. Unquoted text of a quoted document is
// never a negative (ToS;DR reviewers quote what they noticed), and neither
// is a CLAUDETTE sentence for a case outside CLAUDETTE's eight categories:
// "you can delete your account" is fair there and a good practice here.
func caseRows(d ToSDR, cases []model.CaseInfo, clauses []Example, skip func(service string) bool) []caseRow {
	idx := map[string]int{}
	for i, c := range cases {
		idx[c.Title] = i
	}
	byText := map[string]int{}
	var rows []caseRow
	for _, p := range d.Points {
		k, ok := idx[p.Case]
		if !ok || !usable(p) || skip(p.Service) {
			continue
		}
		key := p.Service + "\x00" + strings.Join(analyze.Normalize(p.Quote), " ")
		if r, ok := byText[key]; ok {
			if !slices.Contains(rows[r].cases, k) {
				rows[r].cases = append(rows[r].cases, k)
			}
			continue
		}
		byText[key] = len(rows)
		rows = append(rows, caseRow{group: "tosdr:" + p.Service, text: p.Quote, cases: []int{k}})
	}
	for _, e := range clauses {
		if skip(e.Doc) {
			continue
		}
		rows = append(rows, caseRow{group: "claudette:" + e.Doc, text: e.Text, clauseLabels: e.Labels, clause: true})
	}
	return rows
}

// CaseEval is the quote-level cross-validated quality of the case detector.
type CaseEval struct {
	Columns        []PRF // per case, on quotes (and CLAUDETTE negatives where they count)
	Micro, MacroF1 float64
}

// TrainCases fits the case detector: one linear SVM per case (one against
// the rest of the quotes), each case's threshold chosen by service-grouped
// cross-validation (whole ToS;DR services and CLAUDETTE companies left out)
// as the one that maximises the case's F1 on the out-of-fold margins.
// skip leaves services (ToS;DR services and CLAUDETTE companies, by name)
// out of training altogether: eval-grades holds out the services it grades. The result is deterministic.
//
// The quotes say what a case looks like, not how often it occurs: a
// threshold fitted on them alone lets a case fire in most documents. So
// each threshold is then raised, where needed, until the case fires in no
// more of the corpus's services (their documents, unlabelled, sentence by
// sentence) than the share of well-reviewed ToS;DR services that have a
// point of it. That matches the detector's yield to what ToS;DR's grades
// count.
func TrainCases(d ToSDR, clauses []Example, corpus map[string][]string, cfg TrainConfig, skip func(service string) bool) (*model.CaseModel, CaseEval) {
	cases := d.DetectedCases()
	rows := caseRows(d, cases, clauses, skip)
	fc := cfg.Features
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = r.text
	}
	X, buckets, idf := vectorize(&fc, texts, cfg.MinDF)
	nc := len(cases)
	Y := make([][]float64, nc)
	use := make([][]int, nc) // rows that train case j
	for j, c := range cases {
		Y[j] = make([]float64, len(rows))
		clauseCat := slices.Contains(analyze.ClauseLabels, c.Category)
		for i, r := range rows {
			Y[j][i] = -1
			if slices.Contains(r.cases, j) {
				Y[j][i] = 1
			}
			if !r.clause || clauseCat && !slices.Contains(r.clauseLabels, c.Category) {
				use[j] = append(use[j], i)
			}
		}
	}
	fold := GroupFolds(rows, func(r caseRow) string { return r.group }, cfg.Folds)
	res := fitLabels(X, Y, use, fold, len(buckets), cfg, nil)
	m := &model.CaseModel{Version: 1, Cases: cases, Features: fc, Buckets: buckets, IDF: idf}
	var ev CaseEval
	var stp, sfp, sfn int
	grid := thresholdGrid()
	for j, c := range cases {
		// The threshold of case j is the F1-optimal one on its out-of-fold
		// margins; its quality is measured honestly, each fold with the
		// threshold chosen on the other folds.
		col := heldOutPRF(c.Title, res[j].oof, Y[j], use[j], fold, cfg.Folds, func(other []int) float64 {
			return grid[argmax(f1Grid(res[j].oof, Y[j], other, grid))]
		})
		stp, sfp, sfn = stp+col.TP, sfp+col.FP, sfn+col.FN
		ev.Columns = append(ev.Columns, col)
		ev.MacroF1 += col.F1 / float64(nc)
		m.Bias = append(m.Bias, float32(res[j].b))
		m.Thr = append(m.Thr, float32(grid[argmax(f1Grid(res[j].oof, Y[j], use[j], grid))]))
	}
	_, _, ev.Micro = prf(stp, sfp, sfn)
	m.Ptr, m.Case, m.W = sparseRows(res, len(buckets))
	calibrate(m, prevalence(d, cases, skip), corpus, skip)
	return m, ev
}

// minReviewedPoints is how many usable points make a ToS;DR service
// well-reviewed, for the prevalence of cases.
const minReviewedPoints = 15

// prevalence is, per case, the share of well-reviewed ToS;DR services with
// a point of it.
func prevalence(d ToSDR, cases []model.CaseInfo, skip func(string) bool) []float64 {
	n := map[string]int{}
	has := map[string]map[string]bool{}
	for _, p := range d.Points {
		if !usable(p) || skip(p.Service) {
			continue
		}
		n[p.Service]++
		if has[p.Case] == nil {
			has[p.Case] = map[string]bool{}
		}
		has[p.Case][p.Service] = true
	}
	reviewed := 0
	for _, k := range n {
		if k >= minReviewedPoints {
			reviewed++
		}
	}
	out := make([]float64, len(cases))
	for j, c := range cases {
		for s := range has[c.Title] {
			if n[s] >= minReviewedPoints {
				out[j]++
			}
		}
		out[j] /= float64(max(reviewed, 1))
	}
	return out
}

// calibrate raises each case's threshold so that it fires in at most its
// prevalence's share of the corpus services.
func calibrate(m *model.CaseModel, prev []float64, corpus map[string][]string, skip func(string) bool) {
	sw := m.Weights()
	lin := sw.Linear()
	var scratch model.Scratch
	var services []string
	for s := range corpus {
		if !skip(s) {
			services = append(services, s)
		}
	}
	if len(services) == 0 {
		return
	}
	slices.Sort(services)
	best := make([][]float32, len(m.Cases)) // per case, each service's highest margin
	for _, s := range services {
		top := make([]float32, len(m.Cases))
		for j := range top {
			top[j] = float32(math.Inf(-1))
		}
		for _, sent := range corpus[s] {
			for j, v := range lin.Margins(analyze.Normalize(sent), &scratch) {
				top[j] = max(top[j], v)
			}
		}
		for j, v := range top {
			best[j] = append(best[j], v)
		}
	}
	for j := range m.Cases {
		slices.Sort(best[j])
		slices.Reverse(best[j])
		k := int(prev[j] * float64(len(services))) // services allowed to fire
		if k < len(services) {
			// just above the (k+1)-th highest margin
			m.Thr[j] = max(m.Thr[j], best[j][k]+1e-4)
		}
	}
}

// caseWeightMin drops the smallest weights from the stored model: they move
// a margin by less than a hundredth in all but very long sentences, and
// keeping them would multiply the model's size.
const caseWeightMin = 0.02

// sparseRows stores the weights feature by feature, only those of at least
// caseWeightMin in magnitude.
func sparseRows(res []fitted, nf int) (ptr []uint32, cas []uint8, w []float32) {
	ptr = append(ptr, 0)
	for k := range nf {
		for j := range res {
			if v := res[j].w[k]; math.Abs(v) >= caseWeightMin {
				cas = append(cas, uint8(j))
				w = append(w, float32(v))
			}
		}
		ptr = append(ptr, uint32(len(w)))
	}
	return ptr, cas, w
}

func prf(tp, fp, fn int) (p, r, f1 float64) {
	if tp+fp > 0 {
		p = 100 * float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = 100 * float64(tp) / float64(tp+fn)
	}
	if tp > 0 {
		f1 = 100 * 2 * float64(tp) / float64(2*tp+fp+fn)
	}
	return p, r, f1
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

func thresholdGrid() []float64 {
	var grid []float64
	for g := -150; g <= 150; g += 5 {
		grid = append(grid, float64(g)/100)
	}
	return grid
}

// GroupFolds deals items into folds by their group, whole groups round
// robin in order of first appearance.
func GroupFolds[T any](items []T, group func(T) string, folds int) []int {
	f := map[string]int{}
	out := make([]int, len(items))
	for i, it := range items {
		g := group(it)
		k, ok := f[g]
		if !ok {
			k = len(f) % folds
			f[g] = k
		}
		out[i] = k
	}
	return out
}

// heldOutPRF scores out-of-fold margins against y (>0 positive) over rows,
// each fold with the threshold choose picks on the other folds' rows, so
// the threshold's choice is held out too.
func heldOutPRF(label string, score, y []float64, rows, fold []int, folds int, choose func(other []int) float64) PRF {
	col := PRF{Label: label}
	for k := range folds {
		var other []int
		for _, i := range rows {
			if fold[i] != k {
				other = append(other, i)
			}
		}
		t := choose(other)
		for _, i := range rows {
			if fold[i] != k {
				continue
			}
			p, g := score[i] >= t, y[i] > 0
			switch {
			case p && g:
				col.TP++
			case p:
				col.FP++
			case g:
				col.FN++
			}
		}
	}
	col.Support = col.TP + col.FN
	col.P, col.R, col.F1 = prf(col.TP, col.FP, col.FN)
	return col
}

// GradedTypes are the documents a service is graded from, as ToS;DR's
// reviewers quote them most: its terms and its privacy policy.
var GradedTypes = []string{"Terms of Service", "Privacy Policy"}

// CorpusSentences returns the sentences of each service's graded documents.
func CorpusSentences(docs []corpus.Doc) map[string][]string {
	out := map[string][]string{}
	for _, d := range docs {
		if !slices.Contains(GradedTypes, d.Type) {
			continue
		}
		rs := []rune(d.Text)
		for _, sp := range analyze.Sentences(d.Text) {
			out[d.Service] = append(out[d.Service], string(rs[sp.Start:sp.End]))
		}
	}
	return out
}

// CaseData is what the case detector learns from: ToS;DR's points, the
// labelled clause sentences and the corpus's sentences by service.
type CaseData struct {
	ToSDR   ToSDR
	Clauses []Example // train, validation and newer
	Corpus  map[string][]string
}

// ReadCaseData reads tosdr/, clauses/ and corpus/ of the shared data dir.
func ReadCaseData(dir string) (CaseData, error) {
	var d CaseData
	var err error
	if d.ToSDR, err = ReadToSDR(filepath.Join(dir, "tosdr")); err != nil {
		return d, err
	}
	cl, err := ReadClauseData(filepath.Join(dir, "clauses"))
	if err != nil {
		return d, err
	}
	d.Clauses = slices.Concat(cl.Train, cl.Validation, cl.Newer)
	docs, err := corpus.Read(filepath.Join(dir, "corpus", "documents.jsonl.gz"))
	d.Corpus = CorpusSentences(docs)
	return d, err
}

// BlockerOffset is how far above its F1 threshold a blocker case must
// score: a blocker costs three bad cases and caps the grade at D, so a false
// one costs more than a missed one. Chosen on the dev services by
// cmd/eval-grades (leave-one-service-out).
const BlockerOffset float32 = 0

// RaiseBlockers returns a copy of m whose blocker cases' thresholds are
// raised by off.
func RaiseBlockers(m *model.CaseModel, off float32) *model.CaseModel {
	c := *m
	c.Thr = slices.Clone(m.Thr)
	for j, info := range m.Cases {
		if info.Rating == analyze.SeverityBlocker {
			c.Thr[j] += off
		}
	}
	return &c
}
