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

// A monitored text that is not a legal document has no grade: list_alerts
// (REST's body) says null for it, not "", and the letter of the terms that
// replaced it.
func TestAlertGradeNotALegalDocument(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "monitor")
	s, _ := connect(t, url, k.RawKey)
	e.Docs.Set("/nav", apptest.Page{ContentType: "text/html", Body: apptest.NavPage})
	m, isErr := call(t, s, "create_monitor", map[string]any{"url": e.Docs.URL("/nav")})
	if isErr {
		t.Fatalf("create_monitor: %v", m)
	}
	e.Docs.Set("/nav", apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})
	if _, err := e.Mon.CheckMonitor(e.Ctx(k.RawKey), m["id"].(string)); err != nil {
		t.Fatal(err)
	}
	al, isErr := call(t, s, "list_alerts", nil)
	as, _ := al["alerts"].([]any)
	if isErr || len(as) != 1 {
		t.Fatalf("list_alerts: %v", al)
	}
	a := as[0].(map[string]any)
	if g, ok := a["gradeBefore"]; !ok || g != nil {
		t.Errorf("gradeBefore %#v, want null", g)
	}
	if g, _ := a["gradeAfter"].(string); g == "" {
		t.Errorf("gradeAfter %#v, want the terms' letter", a["gradeAfter"])
	}
}
