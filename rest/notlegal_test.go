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
