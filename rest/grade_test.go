package rest_test

import (
	"net/http"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// grading is a grade as the API writes it, with its basis and cases.
type grading struct {
	Grade    string
	Score    int
	Basis    *app.GradeBasis
	Cases    []app.Case
	Findings []app.Finding
}

// check fails unless g's grade is the rule over the findings of its
// documents (docs), and its basis counts them.
func (g grading) check(t *testing.T, what string, docs ...[]app.Finding) {
	t.Helper()
	grade, score, basis := apptest.Rule(docs...)
	if g.Basis == nil || *g.Basis != basis || g.Grade != grade || g.Score != score {
		t.Errorf("%s: grade %s %d basis %+v over %+v; the rule gives %s %d %+v", what, g.Grade, g.Score, g.Basis, g.Cases, grade, score, basis)
	}
}

// An analysis shows what its grade rests on: the basis and the cases, each
// finding naming its case; a batch grades its items' findings together.
func TestAnalysisShowsGradeBasis(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("grade@example.com")
		k := e.MustKey(tok)
		res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": apptest.GradedTerms, "documentType": "terms"})
		if res.status != http.StatusOK {
			t.Fatalf("%d %s", res.status, res.body)
		}
		var a grading
		res.decode(t, &a)
		a.check(t, "analysis", a.Findings)
		if a.Basis.Bad == 0 || len(a.Cases) == 0 {
			t.Fatalf("terms without notice found no bad case: %s", res.body)
		}
		titles := map[string]bool{}
		for _, c := range a.Cases {
			titles[c.Title] = true
		}
		withCase := 0
		for _, f := range a.Findings {
			if f.Case != "" {
				withCase++
				if !titles[f.Case] || f.Title != f.Case {
					t.Errorf("finding %+v names a case outside %v", f, a.Cases)
				}
			}
		}
		if withCase == 0 {
			t.Errorf("no finding names its case: %s", res.body)
		}

		res = e.do("POST", "/api/analyze/batch", k.RawKey, map[string]any{"items": []any{
			map[string]any{"text": apptest.GradedTerms, "documentType": "terms"},
			map[string]any{"text": apptest.GradedPrivacy, "documentType": "privacy"},
			map[string]any{"url": e.Docs.URL("/no-such-page")},
		}})
		if res.status != http.StatusOK {
			t.Fatalf("batch: %d %s", res.status, res.body)
		}
		var b struct {
			Results []struct {
				OK       bool
				Analysis *grading
			}
			Overall *grading
		}
		res.decode(t, &b)
		if len(b.Results) != 3 || !b.Results[0].OK || !b.Results[1].OK || b.Results[2].OK || b.Overall == nil {
			t.Fatalf("batch: %s", res.body)
		}
		b.Overall.check(t, "overall", b.Results[0].Analysis.Findings, b.Results[1].Analysis.Findings)
		n := map[string]bool{}
		for _, r := range b.Results[:2] {
			for _, c := range r.Analysis.Cases {
				n[c.Title] = true
			}
		}
		if len(b.Overall.Cases) != len(n) {
			t.Errorf("overall has %d cases, the items %d distinct ones", len(b.Overall.Cases), len(n))
		}
	})
}
