package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/mcp"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// bearer adds the API key to every request of the SDK's client.
type bearer struct {
	key  string
	last *http.Response
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		b.last = res
	}
	return res, err
}

func newServer(t *testing.T, e *apptest.Env) string {
	// As in the server: Observe carries the per-request info the usage log reads.
	h := mcp.NewHandler(mcp.Options{Service: e.Svc, Monitors: e.Mon, Logger: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(middleware.Observe(slog.New(slog.DiscardHandler), middleware.NewMetrics(prometheus.NewRegistry()), h))
	t.Cleanup(srv.Close)
	return srv.URL
}

func connect(t *testing.T, url, key string) (*sdk.ClientSession, *bearer) {
	t.Helper()
	b := &bearer{key: key}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: b}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, b
}

func call(t *testing.T, s *sdk.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: %q: %v", name, text, err)
	}
	return out, res.IsError
}

func TestToolsThroughTheSDKClient(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.Monitoring(func(o *monitor.Options) { o.HostInterval = -1 }))
		url := newServer(t, e)
		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierAdvanced)
		k := e.MustKey(tok, "extract", "analyze", "monitor")
		s, b := connect(t, url, k.RawKey)

		list, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		if got := strings.Join(names, " "); got != "analyze analyze_batch create_monitor extract list_alerts list_monitors mark_alerts update_monitor" {
			t.Errorf("tools: %s", got)
		}

		x, isErr := call(t, s, "extract", map[string]any{"url": e.Docs.URL("/terms")})
		if isErr || !strings.Contains(x["text"].(string), "terms") {
			t.Errorf("extract: %v", x)
		}
		if b.last.Header.Get("RateLimit-Remaining") != "99" {
			t.Errorf("extract's RateLimit-Remaining %q, want 99 (REST's)", b.last.Header.Get("RateLimit-Remaining"))
		}

		a, isErr := call(t, s, "analyze", map[string]any{"url": e.Docs.URL("/terms")})
		findings, _ := a["findings"].([]any)
		if isErr || a["grade"] == "" || a["why"] == "" || len(findings) == 0 || findings[0].(map[string]any)["quote"] == "" {
			t.Errorf("analyze url: %v", a)
		}
		// The grade is explained in the command line's own sentence.
		stored, err := e.Svc.FindAnalysis(e.Ctx(k.RawKey), a["id"].(string), app.AllParts)
		if err != nil {
			t.Fatal(err)
		}
		if got := a["why"]; got != stored.Why() {
			t.Errorf("analyze url: why %q, want %q", got, stored.Why())
		}
		a, isErr = call(t, s, "analyze", map[string]any{"text": "We may terminate your account at any time without notice."})
		if isErr || a["grade"] == nil {
			t.Errorf("analyze text: %v", a)
		}

		bt, isErr := call(t, s, "analyze_batch", map[string]any{"items": []any{map[string]any{"text": "We may change these terms at any time."}, map[string]any{"url": e.Docs.URL("/terms")}}})
		if rs, _ := bt["results"].([]any); isErr || len(rs) != 2 || rs[1].(map[string]any)["ok"] != true {
			t.Errorf("analyze_batch: %v", bt)
		}

		e.Docs.Set("/watched", apptest.Page{ContentType: "text/html", Body: strings.Replace(apptest.TermsPage, "<p>Any dispute", "<p>No dispute", 1)})
		m, isErr := call(t, s, "create_monitor", map[string]any{"url": e.Docs.URL("/watched"), "name": "terms"})
		if isErr || m["id"] == "" {
			t.Fatalf("create_monitor: %v", m)
		}
		if m["alertOn"] != "any" {
			t.Errorf("create_monitor without alertOn: alertOn %v, want any", m["alertOn"])
		}
		if u, isErr := call(t, s, "update_monitor", map[string]any{"id": m["id"], "alertOn": "risk"}); isErr || u["alertOn"] != "risk" {
			t.Errorf("update_monitor to risk: %v", u)
		}
		if u, isErr := call(t, s, "update_monitor", map[string]any{"id": m["id"], "alertOn": "sometimes"}); !isErr {
			t.Errorf("update_monitor to an unknown alertOn succeeded: %v", u)
		}
		if u, isErr := call(t, s, "update_monitor", map[string]any{"id": m["id"], "alertOn": "any"}); isErr || u["alertOn"] != "any" {
			t.Errorf("update_monitor back to any: %v", u)
		}
		e.Docs.Set("/risky", apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})
		if r, isErr := call(t, s, "create_monitor", map[string]any{"url": e.Docs.URL("/risky"), "alertOn": "risk"}); isErr || r["alertOn"] != "risk" {
			t.Errorf("create_monitor with alertOn risk: %v", r)
		} else if err := e.Mon.DeleteMonitor(e.Ctx(k.RawKey), r["id"].(string)); err != nil {
			t.Fatal(err)
		}
		ms, _ := call(t, s, "list_monitors", nil)
		if got, _ := ms["monitors"].([]any); len(got) != 1 || got[0].(map[string]any)["id"] != m["id"] {
			t.Errorf("list_monitors: %v", ms)
		}

		// A change, checked now, raises an alert to read and mark.
		e.Docs.Set("/watched", apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})
		if _, err := e.Mon.CheckMonitor(e.Ctx(k.RawKey), m["id"].(string)); err != nil {
			t.Fatal(err)
		}
		al, isErr := call(t, s, "list_alerts", map[string]any{"unread": true})
		if isErr {
			t.Fatalf("list_alerts: %v", al)
		}
		var ids []any
		for _, x := range al["alerts"].([]any) {
			ids = append(ids, x.(map[string]any)["id"])
			if n, ok := x.(map[string]any)["findingsAddedOmitted"]; !ok || n != float64(0) {
				t.Errorf("list_alerts: findingsAddedOmitted %v, want 0", n)
			}
		}
		mk, isErr := call(t, s, "mark_alerts", map[string]any{"ids": ids})
		if isErr || len(ids) != 1 || mk["updated"] != float64(len(ids)) {
			t.Errorf("mark_alerts: %v", mk)
		}
		if _, isErr := call(t, s, "mark_alerts", map[string]any{"ids": []any{"not-a-uuid"}}); !isErr {
			t.Error("mark_alerts with a bad id succeeded")
		}
	})
}

// A key without the scope is refused as REST refuses it, and an exhausted
// budget says the limit, what is used and what to do, with nothing taken.
func TestScopesAndBudgetsAreREST(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		url := newServer(t, e)
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok, "analyze")
		s, b := connect(t, url, k.RawKey)

		out, isErr := call(t, s, "extract", map[string]any{"url": e.Docs.URL("/terms")})
		if !isErr || out["code"] != "forbidden" || out["requiredScope"] != "extract" {
			t.Errorf("extract without the scope: %v", out)
		}
		out, isErr = call(t, s, "list_monitors", nil)
		if !isErr || out["code"] != "forbidden" {
			t.Errorf("list_monitors without the scope: %v", out)
		}

		for range 5 {
			if _, isErr := call(t, s, "analyze", map[string]any{"text": "We may change these terms."}); isErr {
				t.Fatal("a scan within the budget refused")
			}
		}
		out, isErr = call(t, s, "analyze", map[string]any{"text": "We may change these terms."})
		if !isErr || out["code"] != "rate_limited" || out["error"] != "Daily scan limit reached for this API key" ||
			out["limit"] != float64(5) || out["used"] != float64(5) || out["scansRemaining"] != float64(0) ||
			!strings.Contains(out["hint"].(string), "UTC midnight") {
			t.Errorf("the sixth scan: %v", out)
		}
		if b.last.Header.Get("RateLimit-Remaining") != "0" {
			t.Errorf("RateLimit-Remaining %q after the refusal", b.last.Header.Get("RateLimit-Remaining"))
		}
		if got := e.ScansUsed(k.Key.ID); got != 5 {
			t.Errorf("%d scans used, want 5", got)
		}
	})
}

func TestNoKeyIs401(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	res, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("no key: %d %v", res.StatusCode, res.Header)
	}
}

// post sends one raw JSON-RPC body with key and returns the status and body.
func post(t *testing.T, url, key, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func batchOf(n int, call string) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(call, i+1)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

// A JSON-RPC batch holds at most 10 calls: a longer one is one
// JSON-RPC error, answered before any call runs; within the bound, each tool
// call draws its own scan.
func TestBatchesAreBounded(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "analyze")
	list := `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
	for _, n := range []int{mcp.MaxBatch + 1, 40000} {
		status, body := post(t, url, k.RawKey, batchOf(n, list))
		var got struct {
			ID    any
			Error struct {
				Code    int
				Message string
			}
		}
		if status != http.StatusBadRequest || json.Unmarshal([]byte(body), &got) != nil || got.Error.Code != -32600 ||
			!strings.Contains(got.Error.Message, "at most 10 calls") || len(body) > 200 {
			t.Errorf("a batch of %d: %d %.300s, want 400 and one JSON-RPC error", n, status, body)
		}
	}
	status, body := post(t, url, k.RawKey, batchOf(mcp.MaxBatch, list))
	var answers []struct{ ID int }
	if status != http.StatusOK || json.Unmarshal([]byte(body), &answers) != nil || len(answers) != mcp.MaxBatch {
		t.Errorf("a batch of %d: %d %.300s, want %d answers", mcp.MaxBatch, status, body, mcp.MaxBatch)
	}
	analyze := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"analyze","arguments":{"text":"We may change these terms."}}}`
	if status, body := post(t, url, k.RawKey, batchOf(3, analyze)); status != http.StatusOK || strings.Count(body, `"isError":true`) != 0 {
		t.Errorf("a batch of 3 analyses: %d %.300s", status, body)
	}
	if got := e.ScansUsed(k.Key.ID); got != 3 {
		t.Errorf("%d scans used by a batch of 3 analyses, want 3", got)
	}
}

// A refused tool call is an error in the account's usage, as a refused
// REST request is, though the HTTP exchange carrying it answered 200.
func TestRefusedCallsCountAsErrors(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "analyze")
	s, _ := connect(t, url, k.RawKey)
	if _, isErr := call(t, s, "extract", map[string]any{"url": e.Docs.URL("/terms")}); !isErr {
		t.Fatal("extract without the scope succeeded")
	}
	e.Flush()
	st, err := e.Svc.Usage(e.Ctx(tok), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.ErrorCount < 1 || len(st.RecentErrors) < 1 || !strings.Contains(st.RecentErrors[0].Error, "scope") {
		t.Errorf("usage after a refused call: %d errors, recent %+v; want the refusal", st.ErrorCount, st.RecentErrors)
	}
}

// An internal error is logged once with the request id, as REST logs it,
// and its cause is never sent: here the database goes away under a
// connected client.
func TestInternalErrorsAreLogged(t *testing.T) {
	store := dbtest.Open(t, dbtest.SQLite)
	e := apptest.New(t, store)
	var logs apptest.Logs
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	h := mcp.NewHandler(mcp.Options{Service: e.Svc, Monitors: e.Mon, Logger: log})
	srv := httptest.NewServer(middleware.Observe(slog.New(slog.DiscardHandler), middleware.NewMetrics(prometheus.NewRegistry()), h))
	t.Cleanup(srv.Close)
	tok, _ := e.MustAccount("")
	s, b := connect(t, srv.URL, e.MustKey(tok, "monitor").RawKey)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_monitors"})
	if err == nil {
		t.Fatal("list_monitors answered without its database")
	}
	if b.last == nil || b.last.StatusCode != http.StatusInternalServerError {
		t.Errorf("status %v, want 500 (REST's for internal)", b.last)
	}
	if got := logs.String(); !strings.Contains(got, `"msg":"internal error"`) || !strings.Contains(got, `"request_id":"`) {
		t.Errorf("log %q, want one internal error with its request id", got)
	}
}

// Tool arguments are read as REST reads a body: a key given twice, an
// unknown argument or a value of the wrong type is refused with REST's
// invalid body naming the argument, and never with Go's type names.
func TestArgumentsAreReadStrictly(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	url := newServer(t, e)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "analyze", "monitor")
	for _, c := range []struct{ name, tool, args, field, message string }{
		{"a key twice", "analyze", `{"text":"We may change these terms.","text":"x"}`, "text", "appears more than once"},
		{"an unknown argument", "analyze", `{"text":"We may change these terms.","txt":"x"}`, "txt", "is not a known field"},
		{"a name in another case", "analyze", `{"TEXT":"We may change these terms."}`, "TEXT", "case-sensitive"},
		{"a string for a number", "list_alerts", `{"limit":"ten"}`, "limit", "must be a number"},
		{"a number past an int", "list_alerts", `{"limit":1e30}`, "limit", "must be a whole number in range"},
		{"a fraction", "list_alerts", `{"limit":1.5}`, "limit", "must be a whole number in range"},
		{"a number for a string", "create_monitor", `{"url":5}`, "url", "must be a string"},
		{"a string for a list", "mark_alerts", `{"ids":"x"}`, "ids", "must be an array"},
	} {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":` + c.args + `}}`
		status, got := post(t, url, k.RawKey, body)
		var res struct {
			Result struct {
				IsError           bool
				StructuredContent struct {
					Code    string
					Details []struct{ Field, Message string }
				}
			}
		}
		if err := json.Unmarshal([]byte(got), &res); err != nil || status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.name, status, got)
		}
		sc := res.Result.StructuredContent
		if !res.Result.IsError || sc.Code != "invalid" || len(sc.Details) != 1 || sc.Details[0].Field != c.field ||
			!strings.Contains(sc.Details[0].Message, c.message) || strings.Contains(got, "Go ") || strings.Contains(got, "int") {
			t.Errorf("%s: %s\nwant invalid, %s %s", c.name, got, c.field, c.message)
		}
	}
	if got := e.ScansUsed(k.Key.ID); got != 0 {
		t.Errorf("%d scans used by refused calls, want 0", got)
	}
}
