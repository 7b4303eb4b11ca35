package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// A text with no clause gets no grade: 422 not_a_legal_document with a
// sentence saying why, and the scan given back; in a batch that item
// fails with the code and the others stand. A short real clause is graded.
func TestNotALegalDocument(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("notlegal@example.com")
		k := e.MustKey(tok)
		res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": "hi"})
		body := res.json(t)
		if res.status != http.StatusUnprocessableEntity || body["code"] != "not_a_legal_document" || !strings.Contains(errorMessage(t, res), "no sentence") {
			t.Errorf("hi: %d %s", res.status, res.body)
		}
		if got := e.ScansUsed(k.Key.ID); got != 0 {
			t.Errorf("%d scans used after the refusal, want 0", got)
		}
		res = e.do("POST", "/api/analyze/batch", k.RawKey, map[string]any{"items": []any{
			map[string]any{"text": "Home\nPricing\nAbout us"},
			map[string]any{"text": "We may terminate your account at any time.", "documentType": "terms"},
		}})
		var b struct {
			Results []struct {
				OK    bool
				Error *struct{ Code, Message string }
			}
		}
		res.decode(t, &b)
		if res.status != http.StatusOK || len(b.Results) != 2 || b.Results[0].OK || b.Results[0].Error == nil || b.Results[0].Error.Code != "not_a_legal_document" || !b.Results[1].OK {
			t.Errorf("batch: %d %s", res.status, res.body)
		}
		if got := e.ScansUsed(k.Key.ID); got != 1 {
			t.Errorf("%d scans used after the batch, want 1 (the graded item)", got)
		}
	})
}

// A monitored version whose text is not a legal document has "grade":
// null, not "", in the version list and on its side of a diff; a version
// that is one keeps its letter.
func TestNotALegalDocumentVersionGrade(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		e.Docs.Set("/nav", apptest.Page{ContentType: "text/html", Body: apptest.NavPage})
		tok, _ := e.MustAccount("notlegal-monitor@example.com")
		key := e.MustKey(tok, "monitor").RawKey
		id := e.do("POST", "/api/monitor", key, map[string]any{"url": e.Docs.URL("/nav")}).json(t)["id"].(string)
		e.Docs.Set("/nav", apptest.Page{ContentType: "text/html; charset=utf-8", Body: apptest.TermsPage})
		e.do("POST", "/api/monitor/check?id="+id, key, nil)

		res := e.do("GET", "/api/monitor/versions?monitorId="+id, key, nil)
		vs, _ := res.json(t)["versions"].([]any)
		if res.status != http.StatusOK || len(vs) != 2 {
			t.Fatalf("versions: %d %s", res.status, res.body)
		}
		newer, older := vs[0].(map[string]any), vs[1].(map[string]any)
		if g, ok := older["grade"]; !ok || g != nil {
			t.Errorf("the page that is no legal document: grade %#v, want null", g)
		}
		if g, _ := newer["grade"].(string); g == "" {
			t.Fatalf("the terms: %s", res.body)
		}
		res = e.do("GET", "/api/monitor/versions/diff?monitorId="+id+"&from="+older["contentHash"].(string)+"&to="+newer["contentHash"].(string), key, nil)
		m := res.json(t)
		before, hasBefore := m["gradeBefore"]
		if res.status != http.StatusOK || !hasBefore || before != nil || m["gradeAfter"] != newer["grade"] ||
			m["from"].(map[string]any)["grade"] != nil || m["to"].(map[string]any)["grade"] != newer["grade"] {
			t.Errorf("diff: %d %s", res.status, res.body)
		}
	})
}
