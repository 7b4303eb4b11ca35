package graph_test

import (
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

const (
	gradingFields  = `grade score basis { good neutral bad blocker balance } cases { title rating category }`
	findingsFields = `findings { category severity title quote start end confidence case }`
)

type gqlCase struct {
	Title    string  `json:"title"`
	Rating   string  `json:"rating"`
	Category *string `json:"category"`
}

type gqlGrading struct {
	Grade    string          `json:"grade"`
	Score    int             `json:"score"`
	Basis    *app.GradeBasis `json:"basis"`
	Cases    []gqlCase       `json:"cases"`
	Findings []gqlFinding    `json:"findings"`
}

type gqlFinding struct {
	Category, Severity, Title, Quote string
	Start, End                       int
	Confidence                       float64
	Case                             *string
}

// findings are g's findings as app's.
func (g gqlGrading) findings() []app.Finding {
	out := make([]app.Finding, len(g.Findings))
	for i, f := range g.Findings {
		out[i] = app.Finding{Category: f.Category, Severity: f.Severity, Title: f.Title, Quote: f.Quote, Start: f.Start, End: f.End, Confidence: f.Confidence}
		if f.Case != nil {
			out[i].Case = *f.Case
		}
	}
	return out
}

// check fails unless g's grade is the rule over its documents' findings.
func (g gqlGrading) check(t *testing.T, what string, docs ...[]app.Finding) {
	t.Helper()
	grade, score, basis := apptest.Rule(docs...)
	if g.Basis == nil || *g.Basis != basis || g.Grade != grade || g.Score != score {
		t.Errorf("%s: grade %s %d basis %+v over %+v; the rule gives %s %d %+v", what, g.Grade, g.Score, g.Basis, g.Cases, grade, score, basis)
	}
}

// The analysis shows what its grade rests on, as REST does; stored, it
// reads back the same; a batch grades its items' findings together.
func TestAnalysisShowsGradeBasis(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeAnalyze).RawKey
		var got struct {
			Analyze struct {
				ID string `json:"id"`
				gqlGrading
			} `json:"analyze"`
		}
		e.mustData(t, raw, `mutation($t: String!) { analyze(input: {text: $t, documentType: "terms"}) { id `+gradingFields+` `+findingsFields+` } }`,
			map[string]any{"t": apptest.GradedTerms}, &got)
		a := got.Analyze
		a.check(t, "analysis", a.findings())
		if a.Basis.Bad == 0 {
			t.Fatalf("terms without notice found no bad case: %+v", a)
		}
		titles := map[string]bool{}
		for _, c := range a.Cases {
			titles[c.Title] = true
		}
		withCase := 0
		for _, f := range a.Findings {
			if f.Case != nil {
				withCase++
				if !titles[*f.Case] || f.Title != *f.Case {
					t.Errorf("finding %q names a case outside %v", *f.Case, a.Cases)
				}
			}
		}
		if withCase == 0 {
			t.Errorf("no finding names its case: %+v", a.Findings)
		}

		var stored struct {
			Analysis gqlGrading `json:"analysis"`
		}
		e.mustData(t, raw, `query($id: ID!) { analysis(id: $id) { `+gradingFields+` `+findingsFields+` } }`, map[string]any{"id": a.ID}, &stored)
		stored.Analysis.check(t, "stored analysis", stored.Analysis.findings())
		if len(stored.Analysis.Cases) != len(a.Cases) || *stored.Analysis.Basis != *a.Basis {
			t.Errorf("stored %+v, analyzed %+v", stored.Analysis, a.gqlGrading)
		}

		var batch struct {
			AnalyzeBatch struct {
				Results []struct {
					OK       bool       `json:"ok"`
					Analysis gqlGrading `json:"analysis"`
				} `json:"results"`
				Overall *gqlGrading `json:"overall"`
			} `json:"analyzeBatch"`
		}
		e.mustData(t, raw, `mutation($a: String!, $b: String!) { analyzeBatch(items: [{text: $a, documentType: "terms"}, {text: $b, documentType: "privacy"}]) { results { ok analysis { `+gradingFields+` `+findingsFields+` } } overall { `+gradingFields+` } } }`,
			map[string]any{"a": apptest.GradedTerms, "b": apptest.GradedPrivacy}, &batch)
		b := batch.AnalyzeBatch
		if len(b.Results) != 2 || !b.Results[0].OK || !b.Results[1].OK || b.Overall == nil {
			t.Fatalf("batch: %+v", b)
		}
		b.Overall.check(t, "overall", b.Results[0].Analysis.findings(), b.Results[1].Analysis.findings())
		n := map[string]bool{}
		for _, r := range b.Results {
			for _, c := range r.Analysis.Cases {
				n[c.Title] = true
			}
		}
		if len(b.Overall.Cases) != len(n) {
			t.Errorf("overall has %d cases, the items %d distinct ones", len(b.Overall.Cases), len(n))
		}
	})
}
