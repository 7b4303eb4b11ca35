package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// The error paths of POST /api/analyze and the batch's concurrency bound, as
// decisions.md ("Fetch failures", "Budgets") and README ("Budgets") state them.

// errorMessage checks the contract's error body: a JSON object whose "error" is a non-empty string.
func errorMessage(t *testing.T, res response) string {
	t.Helper()
	msg, _ := res.json(t)["error"].(string)
	if msg == "" {
		t.Errorf("error body %s lacks an error message", res.body)
	}
	return msg
}

// A failed AI summary does not fail the analysis: 200 with the analysis,
// "ai": null and an "aiError" saying why. The scan is spent (the analysis was
// delivered); the AI unit comes back (README, Budgets).
func TestAnalyzeAIFailureKeepsTheAnalysis(t *testing.T) {
	const llmTimeout = 300 * time.Millisecond
	cases := []struct {
		name    string
		handle  http.HandlerFunc
		explain string // what aiError must say
	}{
		{"provider stalls past the LLM timeout", apptest.Stall, "did not answer in time"},
		{"provider answers 500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"the model is overloaded","type":"server_error"}}`)
		}, "AI provider failed"},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				client, calls := apptest.LLMServer(t, llmTimeout, c.handle)
				e := newEnv(t, d, apptest.WithLLM(client))
				tok, _ := e.MustAccount("aifail@example.com")
				k := e.MustKey(tok)
				start := time.Now()
				res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": "We may terminate your account at any time without notice.", "ai": true})
				if took := time.Since(start); took > llmTimeout+5*time.Second {
					t.Errorf("answered after %s: the LLM timeout of %s was not applied", took, llmTimeout)
				}
				if res.status != http.StatusOK {
					t.Fatalf("%d %s, want 200 with the analysis", res.status, res.body)
				}
				if n := calls.Load(); n != 1 {
					t.Errorf("provider called %d times, want 1", n)
				}
				m := res.json(t)
				if ai, ok := m["ai"]; !ok || ai != nil {
					t.Errorf(`"ai" = %v (present %v), want null`, ai, ok)
				}
				if msg, _ := m["aiError"].(string); !strings.Contains(msg, c.explain) {
					t.Errorf("aiError %q, want it to say %q", msg, c.explain)
				}
				var a app.Analysis
				res.decode(t, &a)
				if a.ID == "" || a.Grade == "" || len(a.Findings) == 0 || a.Disclaimer != app.Disclaimer {
					t.Errorf("analysis missing or incomplete: %s", res.body)
				}
				if got := budgetRemaining(t, e, tok, k.Key.ID, "ai"); got != 5 {
					t.Errorf("AI units after a failed summary: %v left, want 5 (given back)", got)
				}
				if got := scansRemaining(t, e, tok, k.Key.ID); got != 4 {
					t.Errorf("scans after an analysis without summary: %v left, want 4", got)
				}
			})
		}
	})
}

// A document server that does not answer within the fetch timeout gives 504
// with an error message, and the scan back.
func TestAnalyzeURLFetchTimeoutIs504AndRefunded(t *testing.T) {
	const fetchTimeout = 300 * time.Millisecond
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, apptest.FetchTimeout(fetchTimeout))
		e.Docs.Handle("/slow-headers", http.HandlerFunc(apptest.Stall))
		e.Docs.Handle("/slow-body", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>We may change these terms")
			w.(http.Flusher).Flush()
			apptest.Stall(w, r)
		}))
		tok, _ := e.MustAccount("slow@example.com")
		k := e.MustKey(tok)
		for _, path := range []string{"/slow-headers", "/slow-body"} {
			start := time.Now()
			res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"url": e.Docs.URL(path)})
			if took := time.Since(start); took > fetchTimeout+5*time.Second {
				t.Errorf("%s: answered after %s, fetch timeout %s", path, took, fetchTimeout)
			}
			if res.status != http.StatusGatewayTimeout {
				t.Errorf("%s: %d %s, want 504", path, res.status, res.body)
			}
			errorMessage(t, res)
			if got := res.header.Get("RateLimit-Remaining"); got != "5" {
				t.Errorf("%s: RateLimit-Remaining %q, want 5 (the pool after the refund)", path, got)
			}
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 5 {
			t.Errorf("timed-out fetches consumed scans: %v left, want 5", got)
		}
	})
}
