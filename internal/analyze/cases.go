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
	n := len(m.Cases)
	if n == 0 || n > 256 || len(m.Bias) != n || len(m.Thr) != n || len(m.IDF) != len(m.Buckets) ||
		len(m.Ptr) != len(m.Buckets)+1 || len(m.Case) != len(m.W) || int(m.Ptr[len(m.Buckets)]) != len(m.W) ||
		m.Features.CharMin != 0 || m.Features.Bits < 8 || m.Features.Bits > 26 {
		return nil, fmt.Errorf("analyze: inconsistent case model file")
	}
	for _, c := range m.Case {
		if int(c) >= n {
			return nil, fmt.Errorf("analyze: inconsistent case model file")
		}
	}
	return &m, nil
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
	s := c.d.pool.Get().(*caseScratch)
	defer c.d.pool.Put(s)
	c.d.score(Normalize(sentence), s)
	return slices.Clone(s.margin)
}

// caseDetector is the loaded form of a case model, with the cases found by
// rules (ruleCases) listed after the learned ones in m.Cases.
type caseDetector struct {
	m     *CaseModel
	rule  []int   // index in m.Cases of each of ruleCases
	index []int32 // hash bucket -> compact row, -1 if unseen
	pool  sync.Pool
}

type caseScratch struct {
	feats  []feat
	margin []float32
	sc     scratch
}

func newCaseDetector(m *CaseModel) *caseDetector {
	d := &caseDetector{index: bucketIndex(m.Features, m.Buckets)}
	d.m, d.rule = withRuleCases(m)
	d.pool.New = func() any { return &caseScratch{} }
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
	s := d.pool.Get().(*caseScratch)
	defer d.pool.Put(s)
	d.score(toks, s)
	from := len(dst)
	for j, m := range s.margin {
		if m >= d.m.Thr[j] {
			dst = append(dst, caseHit{j, sigmoidConf(4 * (m - d.m.Thr[j])), m - d.m.Thr[j]})
		}
	}
	return d.ruleHits(toks, dst, from)
}

// score leaves the margins of the tokens in s.margin.
func (d *caseDetector) score(toks []string, s *caseScratch) {
	s.feats, _ = d.m.Features.extractRaw(s.feats[:0], toks, nil)
	s.feats = d.m.Features.compact(s.feats, d.index, d.m.IDF, int32(len(d.m.Buckets)), &s.sc)
	s.margin = append(s.margin[:0], d.m.Bias...)
	for _, f := range s.feats {
		lo, hi := d.m.Ptr[f.idx], d.m.Ptr[f.idx+1]
		for k, c := range d.m.Case[lo:hi] {
			s.margin[c] += d.m.W[lo+uint32(k)] * f.val
		}
	}
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
