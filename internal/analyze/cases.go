package analyze

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"sync"
)

// CaseInfo is one ToS;DR case the detector finds: its title (a standard
// statement such as "The service can delete your account without prior
// notice and without a reason"), its rating for the user (good, neutral,
// bad, blocker) and our category, empty where none fits.
type CaseInfo struct {
	Title, Rating, Category string
}

// CaseModel is the serialised case detector (gzip + gob), written by
// cmd/train-cases and embedded from model/cases.gob.gz: one linear model
// per case over hashed word unigrams and bigrams, stored feature by
// feature with only the weights that matter (see train.TrainCases).
type CaseModel struct {
	Version  int
	Cases    []CaseInfo
	Features FeatureConfig
	Buckets  []uint32  // active hash buckets, ascending
	IDF      []float32 // per active bucket
	Ptr      []uint32  // weights of bucket k: Case[Ptr[k]:Ptr[k+1]], W[Ptr[k]:Ptr[k+1]]
	Case     []uint8
	W        []float32
	Bias     []float32 // per case
	Thr      []float32 // per case, on the margin
	Notes    string
}

// Encode writes the model deterministically (gob, gzip level 9).
func (m *CaseModel) Encode(w io.Writer) error { return encodeGzipGob(w, m) }

// DecodeCaseModel reads a model written by Encode.
func DecodeCaseModel(r io.Reader) (*CaseModel, error) {
	var m CaseModel
	if err := decodeGzipGob(r, &m); err != nil {
		return nil, err
	}
	sw := m.weights()
	if err := sw.check(len(m.Cases)); err != nil {
		return nil, fmt.Errorf("analyze: case model: %w", err)
	}
	return &m, nil
}

func (m *CaseModel) weights() SparseWeights {
	return SparseWeights{Features: m.Features, Buckets: m.Buckets, IDF: m.IDF, Ptr: m.Ptr, Out: m.Case, W: m.W, Bias: m.Bias, Thr: m.Thr}
}

// CaseDetector is a case model ready to detect, for Options.Cases.
type CaseDetector struct{ d *caseDetector }

// NewCaseDetector prepares a case model that is not the embedded one (for
// evaluation).
func NewCaseDetector(m *CaseModel) *CaseDetector {
	return &CaseDetector{newCaseDetector(m)}
}

// Margins returns the decision value of every case on one raw sentence
// (training calibrates the thresholds with them).
func (c *CaseDetector) Margins(sentence string) []float32 {
	s := c.d.pool.Get().(*linearScratch)
	defer c.d.pool.Put(s)
	c.d.lin.margins(Normalize(sentence), s)
	return slices.Clone(s.margin)
}

// caseDetector is the loaded form of a case model, with the cases found by
// rules (ruleCases) listed after the learned ones in m.Cases.
type caseDetector struct {
	m    *CaseModel
	rule []int // index in m.Cases of each of ruleCases
	lin  linear
	pool sync.Pool
}

func newCaseDetector(m *CaseModel) *caseDetector {
	sw := m.weights()
	d := &caseDetector{lin: sw.linear()}
	d.m, d.rule = withRuleCases(m)
	d.pool.New = func() any { return &linearScratch{} }
	return d
}

// caseHit is one case detected in a sentence.
type caseHit struct {
	idx  int
	conf float64
	over float32 // margin above the case's threshold
}

// detect appends the cases whose margin reaches their threshold on the
// sentence's normalised tokens, then those its rules find (ruleHits).
func (d *caseDetector) detect(toks []string, dst []caseHit) []caseHit {
	s := d.pool.Get().(*linearScratch)
	defer d.pool.Put(s)
	d.lin.margins(toks, s)
	from := len(dst)
	for j, m := range s.margin {
		if m >= d.m.Thr[j] {
			dst = append(dst, caseHit{j, sigmoidConf(4 * (m - d.m.Thr[j])), m - d.m.Thr[j]})
		}
	}
	return d.ruleHits(toks, dst, from)
}

//go:embed model/cases.gob.gz
var embeddedCases []byte

var (
	casesOnce   sync.Once
	defaultCase *caseDetector
	casesErr    error
)

func loadCases() (*caseDetector, error) {
	casesOnce.Do(func() {
		m, err := DecodeCaseModel(bytes.NewReader(embeddedCases))
		if err != nil {
			casesErr = fmt.Errorf("analyze: embedded case model: %w", err)
			return
		}
		defaultCase = newCaseDetector(m)
	})
	return defaultCase, casesErr
}

// DetectCases returns the titles of the ToS;DR cases found in one raw
// sentence, in the model's case order.
func DetectCases(sentence string) []string {
	d, err := loadCases()
	if err != nil {
		return nil
	}
	return d.titles(sentence)
}

func (d *caseDetector) titles(sentence string) []string {
	var out []string
	for _, h := range d.detect(Normalize(sentence), nil) {
		out = append(out, d.m.Cases[h.idx].Title)
	}
	return out
}
