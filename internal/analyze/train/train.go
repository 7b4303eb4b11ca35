// Package train fits and scores the clause classifier that internal/analyze
// embeds: reading the labelled sentences, training, LexGLUE scores. It
// reads files and is only for cmd/train and the cmd/eval-* tools, so
// the server carries none of it.
package train

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// nLabels is the number of clause categories, fixed by the model's arrays.
const nLabels = len(model.ModelFile{}.Bias)

// Example is one labelled sentence of the clause data (shared/data/clauses).
type Example struct {
	Doc    string   `json:"doc"`
	Text   string   `json:"text"`
	Labels []string `json:"labels"`
}

// ReadExamples reads a JSONL file of examples.
func ReadExamples(path string) ([]Example, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Example
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e Example
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// TrainConfig holds the hyper-parameters of one training run.
type TrainConfig struct {
	Features  model.FeatureConfig
	MinDF     int     // drop features seen in fewer training sentences
	C         float64 // SVM regularisation (larger = less regularised)
	PosWeight float64 // multiplies C for positive examples
	Epochs    int     // max dual coordinate descent passes
	Folds     int     // document-grouped folds for threshold selection
	Seed      uint64
}

func (c TrainConfig) String() string {
	f := c.Features
	s := fmt.Sprintf("bits=%d word<=%d char=%d-%d cw=%.2f mindf=%d C=%g pos=%g", f.Bits, f.WordNgrams, f.CharMin, f.CharMax, f.CharWeight, c.MinDF, c.C, c.PosWeight)
	return s
}

// csr is a compact sparse matrix.
type csr struct {
	ptr []int
	idx []int32
	val []float32
}

func (m *csr) row(i int) ([]int32, []float32) {
	return m.idx[m.ptr[i]:m.ptr[i+1]], m.val[m.ptr[i]:m.ptr[i+1]]
}

// TrainCV fits the one-vs-rest linear SVMs on the examples, choosing the
// threshold by document-grouped cross-validation on the same examples (never
// on validation data). It also returns honest cross-validated predictions:
// each fold predicted with thresholds chosen on the other folds' out-of-fold
// margins only, so the threshold choice is validated too.
func TrainCV(exs []Example, cfg TrainConfig) (m *model.ModelFile, honest [][]string) {
	fc := cfg.Features
	texts := make([]string, len(exs))
	for i, e := range exs {
		texts[i] = e.Text
	}
	X, buckets, idf := vectorize(&fc, texts, cfg.MinDF)
	Y := make([][]float64, nLabels)
	all := make([]int, len(exs))
	for i := range all {
		all[i] = i
	}
	use := make([][]int, nLabels)
	for j := range nLabels {
		use[j] = all
		Y[j] = make([]float64, len(exs))
		for i, e := range exs {
			Y[j][i] = -1
			if slices.Contains(e.Labels, analyze.ClauseLabels[j]) {
				Y[j][i] = 1
			}
		}
	}
	// document-grouped folds
	docFold := map[string]int{}
	fold := make([]int, len(exs))
	for i, e := range exs {
		f, ok := docFold[e.Doc]
		if !ok {
			f = len(docFold) % cfg.Folds
			docFold[e.Doc] = f
		}
		fold[i] = f
	}
	nf := len(buckets)
	res := fitLabels(X, Y, use, fold, nf, cfg, nil)
	// Honest CV: each fold is predicted with thresholds chosen on the
	// out-of-fold scores of the other folds only.
	honest = make([][]string, len(exs))
	oofs := make([][]float64, nLabels)
	for j := range nLabels {
		oofs[j] = res[j].oof
	}
	for k := range cfg.Folds {
		var rows []int
		for i := range exs {
			if fold[i] != k {
				rows = append(rows, i)
			}
		}
		ts := chooseThreshold(oofs, Y, rows)
		for j := range nLabels {
			for i := range exs {
				if fold[i] == k && res[j].oof[i] >= ts {
					honest[i] = append(honest[i], analyze.ClauseLabels[j])
				}
			}
		}
	}
	thr := chooseThreshold(oofs, Y, all)
	m = &model.ModelFile{Version: 1, Labels: slices.Clone(analyze.ClauseLabels), Features: fc, Buckets: buckets, IDF: idf, W: make([]float32, nf*nLabels)}
	for j := range nLabels {
		for k := range nf {
			m.W[k*nLabels+j] = float32(res[j].w[k])
		}
		m.Bias[j] = float32(res[j].b)
		m.Thr[j] = float32(thr)
		m.Scale[j] = 4
	}
	for i := range exs {
		honest[i] = analyze.WithRules(exs[i].Text, honest[i])
	}
	return m, honest
}

// f1Grid returns the F1 of scores >= t over rows for each t of grid.
func f1Grid(score, y []float64, rows []int, grid []float64) []float64 {
	out := make([]float64, len(grid))
	for g, t := range grid {
		tp, fp, fn := 0, 0, 0
		for _, i := range rows {
			p := score[i] >= t
			switch {
			case p && y[i] > 0:
				tp++
			case p:
				fp++
			case y[i] > 0:
				fn++
			}
		}
		if tp > 0 {
			out[g] = 2 * float64(tp) / float64(2*tp+fp+fn)
		}
	}
	return out
}

// chooseThreshold picks the decision threshold, one shared by the eight
// categories, that maximises their mean F1 on the given rows of out-of-fold
// margins. Margins of the eight SVMs share one scale, so one parameter
// serves where per-category F1-optimal thresholds would need eight fitted on
// as few as 28 positives; in document-grouped CV the shared one generalised
// better (per-category ones lost 3 points of macro-F1 between the folds they
// were fitted on and the held-out fold).
func chooseThreshold(oof [][]float64, Y [][]float64, rows []int) float64 {
	var grid []float64
	for g := -150; g <= 100; g += 2 {
		grid = append(grid, float64(g)/100)
	}
	mean := make([]float64, len(grid))
	for j := range nLabels {
		for g, f1 := range f1Grid(oof[j], Y[j], rows, grid) {
			mean[g] += f1 / float64(nLabels)
		}
	}
	best := 0
	for g := range mean {
		if mean[g] > mean[best] {
			best = g
		}
	}
	return grid[best]
}

func dot(X *csr, i int, w []float64) float64 {
	idx, val := X.row(i)
	s := 0.0
	for k, c := range idx {
		s += w[c] * float64(val[k])
	}
	return s
}

// trainSVM fits an L2-regularised L2-loss linear SVM by dual coordinate
// descent (Hsieh et al. 2008, as in liblinear -s 1) with a bias feature of 1.
// weight, when not nil, multiplies C row by row.
func trainSVM(X *csr, y []float64, rows []int, nf int, cfg TrainConfig, seed uint64, weight []float64) ([]float64, float64) {
	w := make([]float64, nf)
	b := 0.0
	alpha := make([]float64, len(rows))
	D := make([]float64, len(rows))
	QD := make([]float64, len(rows))
	for r, i := range rows {
		c := cfg.C
		if y[i] > 0 {
			c *= cfg.PosWeight
		}
		if weight != nil {
			c *= weight[i]
		}
		D[r] = 1 / (2 * c)
		_, val := X.row(i)
		s := 1.0
		for _, v := range val {
			s += float64(v) * float64(v)
		}
		QD[r] = s + D[r]
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, seed))
	order := make([]int, len(rows))
	for k := range order {
		order[k] = k
	}
	for epoch := 0; epoch < cfg.Epochs; epoch++ {
		rng.Shuffle(len(order), func(a, c int) { order[a], order[c] = order[c], order[a] })
		maxPG, minPG := math.Inf(-1), math.Inf(1)
		for _, r := range order {
			i := rows[r]
			yi := y[i]
			G := yi*(dot(X, i, w)+b) - 1 + D[r]*alpha[r]
			PG := G
			if alpha[r] == 0 && G > 0 {
				PG = 0
			}
			maxPG = max(maxPG, PG)
			minPG = min(minPG, PG)
			if math.Abs(PG) > 1e-12 {
				old := alpha[r]
				alpha[r] = math.Max(old-G/QD[r], 0)
				d := (alpha[r] - old) * yi
				idx, val := X.row(i)
				for k, c := range idx {
					w[c] += d * float64(val[k])
				}
				b += d
			}
		}
		if maxPG-minPG < 0.01 {
			break
		}
	}
	return w, b
}

// minLabelledTokens is the length under which a newer.jsonl sentence keeps no
// label: that corpus splits headings and list numbers off as sentences
// ("7. Termination"), and a label on them teaches the model a heading.
const minLabelledTokens = 5

// ReadNewer reads newer.jsonl (raw text, labelled like train.jsonl) and drops
// the labels of sentences under five normalised tokens. The text stays raw:
// training normalises every sentence the way the classifier does.
func ReadNewer(path string) ([]Example, error) {
	exs, err := ReadExamples(path)
	for i := range exs {
		if len(analyze.Normalize(exs[i].Text)) < minLabelledTokens {
			exs[i].Labels = nil
		}
	}
	return exs, err
}

// ClauseData is the labelled clause data of shared/data/clauses.
type ClauseData struct {
	Train, Validation, Newer []Example
}

// ReadClauseData reads train.jsonl, validation.jsonl and newer.jsonl of dir.
func ReadClauseData(dir string) (ClauseData, error) {
	var d ClauseData
	var err error
	if d.Train, err = ReadExamples(filepath.Join(dir, "train.jsonl")); err != nil {
		return d, err
	}
	if d.Validation, err = ReadExamples(filepath.Join(dir, "validation.jsonl")); err != nil {
		return d, err
	}
	d.Newer, err = ReadNewer(filepath.Join(dir, "newer.jsonl"))
	return d, err
}

// Labels returns the gold labels of examples.
func Labels(exs []Example) [][]string {
	out := make([][]string, len(exs))
	for i, e := range exs {
		out[i] = e.Labels
	}
	return out
}

// ClauseConfig is the clause model's default configuration (the centre of
// cmd/train's clause grid and what eval-clauses cross-validates).
var ClauseConfig = TrainConfig{
	Features: model.FeatureConfig{Bits: 18, WordNgrams: 2, CharMin: 2, CharMax: 5, CharWeight: 1},
	MinDF:    2, C: 0.5, PosWeight: 2, Epochs: 60, Folds: 5, Seed: 1,
}

// vectorize hashes and weighs texts (sublinear tf x idf, blocks L2-normalised),
// keeping the buckets seen in at least minDF texts.
func vectorize(fc *model.FeatureConfig, texts []string, minDF int) (X *csr, buckets []uint32, idf []float32) {
	raw := make([][]feat, len(texts))
	df := map[uint32]int{}
	for i, t := range texts {
		fs := countFeatures(fc, analyze.Normalize(t))
		raw[i] = fs
		for _, f := range fs {
			df[f.idx]++
		}
	}
	for b, n := range df {
		if n >= minDF {
			buckets = append(buckets, b)
		}
	}
	slices.Sort(buckets)
	index := model.BucketIndex(*fc, buckets)
	idf = make([]float32, len(buckets))
	N := float64(len(texts))
	for k, b := range buckets {
		idf[k] = float32(math.Log((1+N)/(1+float64(df[b]))) + 1)
	}
	X = &csr{ptr: []int{0}}
	for i := range raw {
		for _, f := range weigh(fc, raw[i], index, idf) {
			X.idx = append(X.idx, int32(f.idx))
			X.val = append(X.val, f.val)
		}
		X.ptr = append(X.ptr, len(X.idx))
	}
	return X, buckets, idf
}

// fitted is one label's linear SVM and its out-of-fold margins.
type fitted struct {
	w   []float64
	b   float64
	oof []float64
}

// fitLabels trains one SVM per label on the rows use[j] of X (weight, when
// not nil, multiplying C row by row), by fold for the out-of-fold margins
// (of those rows) and then on all of them. Labels
// are fitted concurrently, at most two at a time per core; each fit is
// seeded by its label and fold, so the result does not depend on timing.
func fitLabels(X *csr, Y [][]float64, use [][]int, fold []int, nf int, cfg TrainConfig, weight []float64) []fitted {
	res := make([]fitted, len(Y))
	sem := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for j := range Y {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			oof := make([]float64, len(fold))
			for k := range cfg.Folds {
				var rows []int
				for _, i := range use[j] {
					if fold[i] != k {
						rows = append(rows, i)
					}
				}
				w, b := trainSVM(X, Y[j], rows, nf, cfg, uint64(j*100+k), weight)
				for _, i := range use[j] {
					if fold[i] == k {
						oof[i] = dot(X, i, w) + b
					}
				}
			}
			w, b := trainSVM(X, Y[j], use[j], nf, cfg, uint64(j*100+99), weight)
			res[j] = fitted{w, b, oof}
		}()
	}
	wg.Wait()
	return res
}
