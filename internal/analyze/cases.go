package analyze

import (
	"sync"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// caseDetector is the loaded form of a case model, with the cases found by
// rules (ruleCases) listed after the learned ones in m.Cases.
type caseDetector struct {
	m    *model.CaseModel
	rule []int // index in m.Cases of each of ruleCases
	lin  *model.Linear
	pool sync.Pool
}

func newCaseDetector(m *model.CaseModel) *caseDetector {
	sw := m.Weights()
	d := &caseDetector{lin: sw.Linear()}
	d.m, d.rule = withRuleCases(m)
	d.pool.New = func() any { return &model.Scratch{} }
	return d
}

// caseHit is one case detected in a sentence.
type caseHit struct {
	idx  int
	conf float64
	over float32 // margin above the case's threshold
	rule bool    // found by a rule (ruleCases)
}

// detect appends the cases whose margin reaches their threshold on the
// sentence's normalised tokens, then those its rules find (ruleHits).
func (d *caseDetector) detect(toks []string, dst []caseHit) []caseHit {
	s := d.pool.Get().(*model.Scratch)
	defer d.pool.Put(s)
	from := len(dst)
	for j, m := range d.lin.Margins(toks, s) {
		if m >= d.m.Thr[j] {
			dst = append(dst, caseHit{j, sigmoidConf(4 * (m - d.m.Thr[j])), m - d.m.Thr[j], false})
		}
	}
	return d.ruleHits(toks, dst, from)
}

func (d *caseDetector) titles(sentence string) []string {
	var out []string
	for _, h := range d.detect(Normalize(sentence), nil) {
		out = append(out, d.m.Cases[h.idx].Title)
	}
	return out
}
