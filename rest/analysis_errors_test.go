package rest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/llm"
)

// The error paths of POST /api/analyze and the batch's concurrency bound, as
// decisions.md ("Fetch failures", "Budgets") and README ("Budgets") state them.

// llmServer is an OpenAI-compatible provider on loopback that answers every
// request with handle, and a client for it with the given timeout. It counts
// the calls it gets.
func llmServer(t *testing.T, timeout time.Duration, handle http.HandlerFunc) (*llm.Client, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", Timeout: timeout}), &calls
}

// loopbackDocs serves handle on 127.0.0.1 and returns it with an option that
// lets the service's fetcher reach it (the allow-list the harness uses for
// its own document server) with the given whole-fetch timeout.
func loopbackDocs(t *testing.T, timeout time.Duration, handle http.Handler) (*httptest.Server, func(*app.Options)) {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	return srv, func(o *app.Options) {
		o.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{srv.Listener.Addr().String()}, Timeout: timeout})
	}
}

// stall holds a request until the client gives up (or a long backstop
// passes, so a broken client cannot hang the test server's Close).
func stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

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
		{"provider stalls past the LLM timeout", func(w http.ResponseWriter, r *http.Request) { stall(r) }, "did not answer in time"},
		{"provider answers 500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"the model is overloaded","type":"server_error"}}`)
		}, "AI provider failed"},
	}
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				client, calls := llmServer(t, llmTimeout, c.handle)
				e := newEnvOn(t, dbtest.Open(t, d), func(o *app.Options) { o.LLM = client })
				tok, _ := e.mustAccount("aifail@example.com")
				k := e.mustKey(tok)
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
	docs := http.NewServeMux()
	docs.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) { stall(r) })
	docs.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><p>We may change these terms")
		w.(http.Flusher).Flush()
		stall(r)
	})
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		srv, allow := loopbackDocs(t, fetchTimeout, docs)
		e := newEnvOn(t, dbtest.Open(t, d), allow)
		tok, _ := e.mustAccount("slow@example.com")
		k := e.mustKey(tok)
		for _, path := range []string{"/slow-headers", "/slow-body"} {
			start := time.Now()
			res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"url": srv.URL + path})
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

// batchBound is the number of batch items analyzed at once
// (internal/app/analysis.go, AnalyzeBatch's semaphore).
const batchBound = 3

// A batch runs its items concurrently, never more than batchBound at once,
// and answers in request order whatever order the items finish in.
func TestBatchConcurrencyIsBoundedAndOrdered(t *testing.T) {
	const items = app.MaxBatch
	var (
		mu                sync.Mutex
		inFlight, maxSeen int
		started           int
		wake              = sync.NewCond(&mu)
	)
	docs := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/doc/%d", &i); err != nil {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		inFlight++
		started++
		maxSeen = max(maxSeen, inFlight)
		wake.Broadcast()
		// Hold each fetch until the bound is reached (or no more items can
		// come), so a bound larger than batchBound would be seen, and a
		// smaller one cannot fill it; the backstop keeps a wrong bound from
		// hanging the test.
		expired := false
		backstop := time.AfterFunc(time.Second, func() { mu.Lock(); expired = true; wake.Broadcast(); mu.Unlock() })
		for inFlight < batchBound && started < items && !expired {
			wake.Wait()
		}
		backstop.Stop()
		mu.Unlock()
		// Earlier items finish later: the answer's order must not follow completion.
		time.Sleep(time.Duration(items-i) * 20 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Document %d</title></head><body><p>Document %d. We may terminate your account at any time.</p></body></html>", i, i)
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		mu.Lock()
		inFlight, maxSeen, started = 0, 0, 0
		mu.Unlock()
		srv, allow := loopbackDocs(t, 5*time.Second, docs)
		e := newEnvOn(t, dbtest.Open(t, d), allow)
		tok, _ := e.mustAccount("bound@example.com")
		k := e.mustKey(tok)
		list := make([]any, items)
		for i := range list {
			list[i] = map[string]any{"url": fmt.Sprintf("%s/doc/%d", srv.URL, i)}
		}
		res := e.do("POST", "/api/analyze/batch", k.RawKey, map[string]any{"items": list})
		if res.status != http.StatusOK {
			t.Fatalf("batch: %d %s", res.status, res.body)
		}
		mu.Lock()
		got := maxSeen
		mu.Unlock()
		if got != batchBound {
			t.Errorf("at most %d items in flight at once, want exactly %d (concurrent, bounded)", got, batchBound)
		}
		var out app.BatchResult
		res.decode(t, &out)
		if len(out.Results) != items {
			t.Fatalf("%d results for %d items: %s", len(out.Results), items, res.body)
		}
		for i, r := range out.Results {
			want := fmt.Sprintf("%s/doc/%d", srv.URL, i)
			if r.Index != i || !r.OK || r.Analysis == nil || r.Analysis.Source.URL != want || r.Analysis.Source.Title != fmt.Sprintf("Document %d", i) {
				t.Errorf("result %d out of order or failed: %+v", i, r)
			}
		}
	})
}
