package analyze

import (
	"math"
	"sync"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
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

const nLabels = model.Clauses

// classifier is the loaded, ready-to-score form of a model.
type classifier struct {
	m         *model.ModelFile
	index     []int32 // hash bucket -> compact row, -1 if unseen
	firstChar int32   // first compact row of the char block
	pool      sync.Pool
}

func newClassifier(m *model.ModelFile) *classifier {
	c := &classifier{m: m, index: model.BucketIndex(m.Features, m.Buckets)}
	half := uint32(1) << (m.Features.Bits - 1)
	c.firstChar = int32(len(m.Buckets))
	for k, b := range m.Buckets {
		if b >= half && int32(k) < c.firstChar {
			c.firstChar = int32(k)
		}
	}
	c.pool.New = func() any { return &model.Scratch{} }
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
	s := c.pool.Get().(*model.Scratch)
	defer c.pool.Put(s)
	if cd != nil {
		dst = cd.detect(toks, dst)
	}
	out := c.m.Bias
	for _, f := range c.m.Features.Features(toks, c.index, c.m.IDF, c.firstChar, s) {
		row := c.m.W[int(f.Row)*nLabels : int(f.Row)*nLabels+nLabels]
		for j := range nLabels {
			out[j] += row[j] * f.Val
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

func (c *classifier) labels(sentence string) []string {
	var out []string
	for j, m := range c.margins(sentence) {
		if m >= c.m.Thr[j] {
			out = append(out, ClauseLabels[j])
		}
	}
	return out
}
