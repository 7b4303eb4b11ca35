package analyze

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"sync"
)

// ClauseLabels are the eight unfair-clause categories of the CLAUDETTE /
// LexGLUE UNFAIR-ToS data, in LexGLUE's label order.
var ClauseLabels = []string{
	"limitation_of_liability",
	"unilateral_termination",
	"unilateral_change",
	"content_removal",
	"contract_by_using",
	"choice_of_law",
	"jurisdiction",
	"arbitration",
}

const nLabels = 8

// ModelFile is the serialised clause classifier (gzip + gob), written by
// cmd/train-clauses and embedded from model/clauses.gob.gz.
type ModelFile struct {
	Version  int
	Labels   []string
	Features FeatureConfig
	Buckets  []uint32  // active hash buckets, ascending
	IDF      []float32 // per active bucket
	W        []float32 // len(Buckets)*8, row-major per bucket
	Bias     [nLabels]float32
	Thr      [nLabels]float32 // decision thresholds on the margin
	Scale    [nLabels]float32 // confidence slope: conf = sigmoid(Scale*(margin-Thr))
	Notes    string           // training summary (data, hyper-parameters, CV scores)
}

// Encode writes the model deterministically (gob, gzip level 9).
func (m *ModelFile) Encode(w io.Writer) error { return encodeGzipGob(w, m) }

// encodeGzipGob writes v as gob, gzip-compressed at level 9.
func encodeGzipGob(w io.Writer, v any) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(zw).Encode(v); err != nil {
		return err
	}
	return zw.Close()
}

// decodeGzipGob reads what encodeGzipGob wrote into v.
func decodeGzipGob(r io.Reader, v any) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	return gob.NewDecoder(zr).Decode(v)
}

// DecodeModel reads a model written by Encode.
func DecodeModel(r io.Reader) (*ModelFile, error) {
	var m ModelFile
	if err := decodeGzipGob(r, &m); err != nil {
		return nil, err
	}
	if len(m.W) != len(m.Buckets)*nLabels || len(m.IDF) != len(m.Buckets) || m.Features.Bits < 8 || m.Features.Bits > 26 {
		return nil, fmt.Errorf("analyze: inconsistent model file")
	}
	return &m, nil
}

// BucketIndex maps each hash bucket of the feature space to its compact
// row among a model's active buckets, -1 where the model has none.
func BucketIndex(f FeatureConfig, buckets []uint32) []int32 {
	index := make([]int32, 1<<f.Bits)
	for i := range index {
		index[i] = -1
	}
	for k, b := range buckets {
		index[b] = int32(k)
	}
	return index
}

// classifier is the loaded, ready-to-score form of a model.
type classifier struct {
	m         *ModelFile
	index     []int32 // hash bucket -> compact row, -1 if unseen
	firstChar int32   // first compact row of the char block
	pool      sync.Pool
}

type scratch struct {
	feats []feat
	buf   []byte
	stamp []uint32
	pos   []int32
	gen   uint32
}

func newClassifier(m *ModelFile) *classifier {
	c := &classifier{m: m, index: BucketIndex(m.Features, m.Buckets)}
	half := uint32(1) << (m.Features.Bits - 1)
	c.firstChar = int32(len(m.Buckets))
	for k, b := range m.Buckets {
		if b >= half && int32(k) < c.firstChar {
			c.firstChar = int32(k)
		}
	}
	c.pool.New = func() any { return &scratch{} }
	return c
}

// margins returns the eight decision values of one raw sentence.
func (c *classifier) margins(sentence string) [nLabels]float32 {
	ms, _ := c.scores(sentence, Normalize(sentence), nil, nil)
	return ms
}

// scores returns the eight decision values of one raw sentence, toks its
// normalised tokens, and, when cd is not nil, appends the cases it detects
// on the same tokens to dst.
func (c *classifier) scores(sentence string, toks []string, cd *caseDetector, dst []caseHit) ([nLabels]float32, []caseHit) {
	s := c.pool.Get().(*scratch)
	defer c.pool.Put(s)
	if cd != nil {
		dst = cd.detect(toks, dst)
	}
	s.feats, s.buf = c.m.Features.extractRaw(s.feats[:0], toks, s.buf)
	s.feats = c.m.Features.compact(s.feats, c.index, c.m.IDF, c.firstChar, s)
	out := c.m.Bias
	for _, f := range s.feats {
		row := c.m.W[int(f.idx)*nLabels : int(f.idx)*nLabels+nLabels]
		for j := range nLabels {
			out[j] += row[j] * f.val
		}
	}
	c.applyRules(sentence, toks, &out)
	return out, dst
}

// scale turns a margin's distance from the threshold into log-odds.
func (c *classifier) scale(j int) float32 {
	if sc := c.m.Scale[j]; sc != 0 {
		return sc
	}
	return 4
}

func (c *classifier) confidence(j int, margin float32) float64 {
	return sigmoidConf(c.scale(j) * (margin - c.m.Thr[j]))
}

// sigmoidConf turns log-odds into a confidence rounded to two decimals.
func sigmoidConf(logit float32) float64 {
	p := 1 / (1 + math.Exp(-float64(logit)))
	return math.Round(p*100) / 100
}

//go:embed model/clauses.gob.gz
var embeddedModel []byte

var (
	loadOnce   sync.Once
	defaultClf *classifier
	defaultErr error
)

func loadDefault() (*classifier, error) {
	loadOnce.Do(func() { defaultClf, defaultErr = decodeEmbedded(embeddedModel) })
	return defaultClf, defaultErr
}

func decodeEmbedded(b []byte) (*classifier, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("analyze: no embedded clause model (run make train)")
	}
	m, err := DecodeModel(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("analyze: embedded clause model: %w", err)
	}
	return newClassifier(m), nil
}

// Load decodes the embedded clause, case and privacy models, once, and reports why
// it cannot. Analyze and Classify cannot fail, and without the models they
// would find no unfair clause nor case in any text, so whatever serves them
// calls Load first.
func Load() error {
	if _, err := loadDefault(); err != nil {
		return err
	}
	if _, err := loadCases(); err != nil {
		return err
	}
	_, err := loadPrivacy()
	return err
}

// ModelInfo returns the training notes of the embedded model, or the load error.
func ModelInfo() (string, error) {
	c, err := loadDefault()
	if err != nil {
		return "", err
	}
	return c.m.Notes, nil
}

// Classify returns the unfair-clause labels of one raw sentence, in LexGLUE
// label order. An empty result means the sentence looks fair.
func Classify(sentence string) []string {
	c, err := loadDefault()
	if err != nil {
		return nil
	}
	return c.labels(sentence)
}

// ClassifyWith is Classify with a model that is not the embedded one.
func ClassifyWith(m *ModelFile) func(sentence string) []string {
	return newClassifier(m).labels
}

func (c *classifier) labels(sentence string) []string {
	var out []string
	for j, m := range c.margins(sentence) {
		if m >= c.m.Thr[j] {
			out = append(out, ClauseLabels[j])
		}
	}
	return out
}
