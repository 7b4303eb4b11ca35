package mcp_test

import (
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// A text with no clause is a tool error with REST's code, the scan given
// back.
func TestAnalyzeNotALegalDocument(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "analyze")
	s, _ := connect(t, url, k.RawKey)
	out, isErr := call(t, s, "analyze", map[string]any{"text": "hi"})
	if !isErr || out["code"] != "not_a_legal_document" {
		t.Errorf("hi: %v", out)
	}
	if got := e.ScansUsed(k.Key.ID); got != 0 {
		t.Errorf("%d scans used, want 0", got)
	}
}
