package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

func TestExtractLoopbackPage(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	tok, _ := e.MustAccount("x@example.com")
	k := e.MustKey(tok)
	res := e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": e.Docs.URL("/terms")})
	if res.status != http.StatusOK {
		t.Fatalf("%d %s", res.status, res.body)
	}
	m := res.json(t)
	for _, f := range []string{"url", "finalUrl", "title", "documentType", "language", "text", "markdown", "wordCount", "contentHash", "fetchedAt"} {
		if _, ok := m[f]; !ok {
			t.Errorf("extraction lacks %q", f)
		}
	}
	text := m["text"].(string)
	if !strings.Contains(text, "binding arbitration") || strings.Contains(text, "Pricing") {
		t.Errorf("text kept navigation or lost content: %q", text)
	}
	if m["documentType"] != "terms" || m["language"] != "en" {
		t.Errorf("documentType %v language %v", m["documentType"], m["language"])
	}
}

func TestAnalyzeQuotesHighlightExactly(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, acct := e.MustAccount("q@example.com")
		k := e.MustKey(tok)
		text := "Bienvenue 👋 — Ünïcödé terms.\n\nWe may terminate your account at any time without notice. 🚀\n\nAny dispute shall be resolved by binding arbitration in Zürich."
		res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": text, "title": "Terms"})
		if res.status != http.StatusOK {
			t.Fatalf("%d %s", res.status, res.body)
		}
		var a app.Analysis
		res.decode(t, &a)
		if len(a.Findings) == 0 || a.Grade == "" || a.Disclaimer != app.Disclaimer || a.ID == "" {
			t.Fatalf("analysis %s", res.body)
		}
		runes := []rune(text)
		for _, f := range a.Findings {
			if string(runes[f.Start:f.End]) != f.Quote {
				t.Errorf("finding %s: text[%d:%d] = %q, quote %q", f.Category, f.Start, f.End, string(runes[f.Start:f.End]), f.Quote)
			}
		}
		// Stored per account: the same id reads back.
		got, err := e.Svc.FindAnalysis(app.WithPrincipal(t.Context(), &app.Principal{Account: *acct}), a.ID, app.AllParts)
		if err != nil || got.ID != a.ID {
			t.Errorf("stored analysis: %v %v", got, err)
		}
		if a.Text != text {
			t.Errorf("text = %q, want the text as given", a.Text)
		}
		// URL input goes through fetch and extract; the extracted text comes
		// back, so the offsets can be used without a second request.
		res = e.do("POST", "/api/analyze", k.RawKey, map[string]any{"url": e.Docs.URL("/terms")})
		if res.status != http.StatusOK || !strings.Contains(string(res.body), `"url":"`+e.Docs.URL("/terms")+`"`) {
			t.Fatalf("url analysis: %d %s", res.status, res.body)
		}
		var u app.Analysis
		res.decode(t, &u)
		runes = []rune(u.Text)
		if len(u.Findings) == 0 || strings.Contains(u.Text, "<") {
			t.Fatalf("url analysis: %d findings, text %q", len(u.Findings), u.Text)
		}
		for _, f := range u.Findings {
			if f.End > len(runes) || string(runes[f.Start:f.End]) != f.Quote {
				t.Errorf("url finding %s at %d..%d does not quote text", f.Category, f.Start, f.End)
			}
		}
	})
}

func TestAnalyzeWithAI(t *testing.T) {
	good := `{"summary":"You can lose your account at any time.","quotes":["We may terminate your account at any time.","made up"]}`
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), apptest.WithLLM(apptest.FakeLLM(t, good)))
	e.Clock.Set(time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC))
	tok, _ := e.MustAccount("ai@example.com")
	k := e.MustKey(tok)
	body := map[string]any{"text": "We may terminate your account at any time.", "ai": true}
	for i := 1; i <= 5; i++ {
		res := e.do("POST", "/api/analyze", k.RawKey, body)
		if res.status != http.StatusOK {
			t.Fatalf("ai %d: %d %s", i, res.status, res.body)
		}
		ai := res.json(t)["ai"].(map[string]any)
		if ai["summary"] == "" || ai["model"] != "test-model" {
			t.Errorf("ai %v", ai)
		}
		if qs, _ := ai["quotes"].([]any); len(qs) != 1 {
			t.Errorf("a quote not in the text was kept: %v", qs)
		}
	}
	// A free key's five AI units are spent (its five scans too): the scan limit answers first.
	e.Clock.Set(time.Date(2026, 11, 11, 12, 0, 0, 0, time.UTC))
	res := e.do("POST", "/api/analyze", k.RawKey, body)
	m := res.json(t)
	if res.status != http.StatusTooManyRequests || m["error"] != "Monthly AI limit reached for this API key" || m["aiRemaining"] != 0.0 || m["aiLimit"] != 5.0 || m["aiResetsAt"] == nil {
		t.Fatalf("sixth AI call next day: %d %s", res.status, res.body)
	}
	// The refused AI call gave its scan back.
	if got := scansRemaining(t, e, tok, k.Key.ID); got != 5 {
		t.Errorf("scans after refused AI call: %v, want 5", got)
	}
}

func TestAnalyzeAIGarbageStillAnswers(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), apptest.WithLLM(apptest.FakeLLM(t, "not json at all")))
	tok, _ := e.MustAccount("garbage@example.com")
	k := e.MustKey(tok)
	res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": "We may sell your personal data.", "ai": true})
	if res.status != http.StatusOK {
		t.Fatalf("%d %s", res.status, res.body)
	}
	m := res.json(t)
	if m["ai"] != nil || m["aiError"] == "" || m["aiError"] == nil {
		t.Errorf("ai %v aiError %v", m["ai"], m["aiError"])
	}
}
