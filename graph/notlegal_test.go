package graph_test

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// A text with no clause gets no grade: the error's code is
// NOT_A_LEGAL_DOCUMENT, with a sentence saying why; in a batch that item
// fails with the code.
func TestNotALegalDocument(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeAnalyze).RawKey
		r := e.do(t, raw, `mutation { analyze(input: {text: "hi"}) { grade } }`, nil)
		if r.code() != "NOT_A_LEGAL_DOCUMENT" || !strings.Contains(r.Errors[0].Message, "no sentence") {
			t.Errorf("hi: %s", r.body)
		}
		var batch struct {
			AnalyzeBatch struct {
				Results []struct {
					OK    bool `json:"ok"`
					Error *struct {
						Code string `json:"code"`
					} `json:"error"`
				} `json:"results"`
			} `json:"analyzeBatch"`
		}
		e.mustData(t, raw, `mutation { analyzeBatch(items: [{text: "hi"}, {text: "We may terminate your account at any time."}]) { results { ok error { code } } } }`, nil, &batch)
		rs := batch.AnalyzeBatch.Results
		if len(rs) != 2 || rs[0].OK || rs[0].Error == nil || rs[0].Error.Code != "NOT_A_LEGAL_DOCUMENT" || !rs[1].OK {
			t.Errorf("batch: %+v", rs)
		}
	})
}
