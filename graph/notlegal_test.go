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

// A monitored version whose text is not a legal document has a null grade,
// not an empty string: in the version list, on either side of a diff and
// on the alert of the change; a version that is one keeps its letter.
func TestNotALegalDocumentVersionGrade(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		e.Docs.Set("/nav", apptest.Page{ContentType: "text/html", Body: apptest.NavPage})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeMonitor).RawKey
		var created struct{ CreateMonitor struct{ ID string } }
		e.mustData(t, raw, `mutation($url: String!) { createMonitor(input: {url: $url}) { id } }`,
			map[string]any{"url": e.Docs.URL("/nav")}, &created)
		id := created.CreateMonitor.ID
		e.Docs.Set("/nav", apptest.Page{ContentType: "text/html", Body: strings.Replace(monitorPage, "%s", "", 1)})
		e.mustData(t, raw, `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, map[string]any{"id": id}, &struct{}{})

		type version struct {
			ContentHash string
			Grade       *string
		}
		var got struct {
			Monitor struct{ Versions struct{ Versions []version } }
			Alerts  struct {
				Alerts []struct{ GradeBefore, GradeAfter *string }
			}
		}
		e.mustData(t, raw, `query($id: ID!) { monitor(id: $id) { versions { versions { contentHash grade } } }
			alerts(monitorId: $id) { alerts { gradeBefore gradeAfter } } }`, map[string]any{"id": id}, &got)
		vs := got.Monitor.Versions.Versions
		if len(vs) != 2 || vs[0].Grade == nil || *vs[0].Grade == "" || vs[1].Grade != nil {
			t.Fatalf("versions %+v", vs)
		}
		if as := got.Alerts.Alerts; len(as) != 1 || as[0].GradeBefore != nil || as[0].GradeAfter == nil || *as[0].GradeAfter != *vs[0].Grade {
			t.Errorf("alerts %+v", as)
		}
		var diff struct {
			MonitorVersionDiff struct {
				GradeBefore, GradeAfter *string
				From, To                version
			}
		}
		e.mustData(t, raw, `query($id: ID!, $a: String!, $b: String!) { monitorVersionDiff(monitorId: $id, from: $a, to: $b) {
			gradeBefore gradeAfter from { contentHash grade } to { contentHash grade } } }`,
			map[string]any{"id": id, "a": vs[1].ContentHash, "b": vs[0].ContentHash}, &diff)
		dd := diff.MonitorVersionDiff
		if dd.GradeBefore != nil || dd.From.Grade != nil || dd.GradeAfter == nil || *dd.GradeAfter != *vs[0].Grade ||
			dd.To.Grade == nil || *dd.To.Grade != *vs[0].Grade {
			t.Errorf("diff %+v", dd)
		}
		// null in the JSON itself, not a field left out
		r := e.do(t, raw, `query($id: ID!, $a: String!) { monitorVersionDiff(monitorId: $id, from: $a, to: $a) { gradeBefore gradeAfter } }`,
			map[string]any{"id": id, "a": vs[1].ContentHash})
		if !strings.Contains(r.body, `"gradeBefore":null,"gradeAfter":null`) {
			t.Errorf("diff of the page with itself: %s", r.body)
		}
	})
}
