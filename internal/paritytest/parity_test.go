package paritytest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/mcp"
	"github.com/clausewatch/clausewatch/rest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// caller is who runs one case: a fresh account, a key of it, and what the
// case's setup left for the request to name.
type caller struct {
	token  string // the account's session
	key    *app.CreatedKey
	bearer string // what the request sends: token, key.RawKey or ""
	target string // an id the request names (a key to revoke, a monitor, an alert)
	page   string // the path of the caller's own page on the document server
	owner  string // the budget pool the request draws on
}

// A case is one operation with one kind of caller. REST and GraphQL each get
// a fresh caller on the same kind of env, so their outcomes, budget effects
// and RateLimit headers must be the same; want pins what they are.
type parityCase struct {
	name    string
	session bool     // call with the account session instead of the key
	scopes  []string // the key's scopes (none: the defaults)
	setup   func(e *apptest.Env, c *caller)
	rest    func(e *apptest.Env, c *caller) (method, path string, body any)
	gql     func(e *apptest.Env, c *caller) (query string, vars map[string]any)
	// mcp, when set, is the same operation as an MCP tool call: its
	// outcome must be REST's too.
	mcp   func(e *apptest.Env, c *caller) (tool string, args map[string]any)
	want  app.Code // "" is success
	scans int      // scans used afterwards in the caller's pool
}

const shortText = "We may change these terms at any time without notice."

func spend(n int) func(*apptest.Env, *caller) {
	return func(e *apptest.Env, c *caller) {
		for range n {
			if _, err := e.Svc.Analyze(e.Ctx(c.bearer), app.AnalyzeInput{Text: shortText}); err != nil {
				e.T.Fatal(err)
			}
		}
	}
}

func items(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"text": shortText}
	}
	return out
}

func extractCase(name, path string, scopes []string, want app.Code, scans int) parityCase {
	return parityCase{name: name, scopes: scopes, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) {
			return "POST", "/api/extract", map[string]any{"url": url(e, path)}
		},
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($u: String!) { extract(url: $u) { url text } }`, map[string]any{"u": url(e, path)}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return "extract", map[string]any{"url": url(e, path)}
		}}
}

func analyzeCase(name string, in map[string]any, want app.Code, scans int) parityCase {
	return parityCase{name: name, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) { return "POST", "/api/analyze", resolve(e, in) },
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($in: AnalyzeInput!) { analyze(input: $in) { id grade } }`, map[string]any{"in": resolve(e, in)}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) { return "analyze", resolve(e, in) }}
}

func batchCase(name string, n int, setup func(*apptest.Env, *caller), want app.Code, scans int) parityCase {
	return parityCase{name: name, setup: setup, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) {
			return "POST", "/api/analyze/batch", map[string]any{"items": items(n)}
		},
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($in: [AnalyzeInput!]!) { analyzeBatch(items: $in) { results { index ok } } }`, map[string]any{"in": items(n)}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return "analyze_batch", map[string]any{"items": items(n)}
		}}
}

// url makes a path on the harness's document server absolute; other URLs stay.
func url(e *apptest.Env, path string) string {
	if strings.HasPrefix(path, "/") {
		return e.Docs.URL(path)
	}
	return path
}

func resolve(e *apptest.Env, in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		out[k] = v
	}
	if u, ok := in["url"].(string); ok {
		out["url"] = url(e, u)
	}
	return out
}

func query(q string) func(*apptest.Env, *caller) (string, map[string]any) {
	return func(*apptest.Env, *caller) (string, map[string]any) { return q, nil }
}

func tool(name string, args map[string]any) func(*apptest.Env, *caller) (string, map[string]any) {
	return func(*apptest.Env, *caller) (string, map[string]any) { return name, args }
}

func route(method, path string, body any) func(*apptest.Env, *caller) (string, string, any) {
	return func(*apptest.Env, *caller) (string, string, any) { return method, path, body }
}

var cases = []parityCase{
	extractCase("extract", "/terms", nil, "", 1),
	extractCase("extract, upstream fails", "/broken", nil, app.CodeUpstream, 0),
	extractCase("extract, not a document", "/image", nil, app.CodeUnreadable, 0),
	extractCase("extract, not http(s)", "ftp://example.com/terms", nil, app.CodeInvalid, 0),
	extractCase("extract, key without the scope", "/terms", []string{"analyze"}, app.CodeForbidden, 0),

	analyzeCase("analyze text", map[string]any{"text": shortText}, "", 1),
	analyzeCase("analyze url", map[string]any{"url": "/terms"}, "", 1),
	analyzeCase("analyze, url and text", map[string]any{"url": "/terms", "text": shortText}, app.CodeInvalid, 0),
	analyzeCase("analyze, AI not configured", map[string]any{"text": shortText, "ai": true}, app.CodeUnavailable, 0),
	func() parityCase {
		c := analyzeCase("analyze, daily scans spent", map[string]any{"text": shortText}, app.CodeRateLimited, 5)
		c.setup = spend(5)
		return c
	}(),
	func() parityCase {
		c := analyzeCase("analyze with a session", map[string]any{"text": shortText}, "", 1)
		c.session = true
		return c
	}(),

	batchCase("analyzeBatch", 2, nil, "", 2),
	batchCase("analyzeBatch, six items", 6, nil, app.CodeInvalid, 0),
	batchCase("analyzeBatch, more items than scans left", 4, spend(2), app.CodeRateLimited, 2),

	{name: "key list", rest: route("GET", "/api/developer/keys", nil), gql: query(`{ apiKeys { id } }`)},
	{name: "key create", session: true, rest: route("POST", "/api/developer/keys", map[string]any{"name": "ci"}),
		gql: query(`mutation { createApiKey(name: "ci") { rawKey } }`)},
	{name: "key create, with a key", rest: route("POST", "/api/developer/keys", map[string]any{"name": "ci"}),
		gql: query(`mutation { createApiKey(name: "ci") { rawKey } }`), want: app.CodeForbidden},
	{name: "key create, unknown scope", session: true, rest: route("POST", "/api/developer/keys", map[string]any{"name": "ci", "scopes": []string{"admin"}}),
		gql: query(`mutation { createApiKey(name: "ci", scopes: ["admin"]) { rawKey } }`), want: app.CodeInvalid},
	revokeCase("key revoke", func(e *apptest.Env, c *caller) { c.target = c.key.Key.ID }, ""),
	revokeCase("key revoke, unknown id", func(e *apptest.Env, c *caller) { c.target = "6f1c1f8e-0000-4000-8000-000000000000" }, app.CodeNotFound),
	revokeCase("key revoke, another account's key", func(e *apptest.Env, c *caller) {
		other, _ := e.MustAccount("")
		c.target = e.MustKey(other).Key.ID
	}, app.CodeNotFound),

	{name: "usage", rest: route("GET", "/api/developer/usage?days=7", nil), gql: query(`{ usage(days: 7) { totalRequests } }`)},
	{name: "usage, days out of range", rest: route("GET", "/api/developer/usage?days=0", nil), gql: query(`{ usage(days: 0) { totalRequests } }`), want: app.CodeInvalid},
	{name: "per-key limits", rest: route("GET", "/api/developer/usage/per-key", nil), gql: query(`{ keyLimits { tier keys { keyId } } }`)},

	createMonitorCase("create monitor", "/terms", nil, "", 1),
	createMonitorCase("create monitor, upstream fails", "/broken", nil, app.CodeUpstream, 0),
	createMonitorCase("create monitor, not a document", "/image", nil, app.CodeUnreadable, 0),
	createMonitorCase("create monitor, interval too short", "/terms", 60, app.CodeInvalid, 0),
	{name: "monitors", scopes: []string{"monitor"}, setup: watched(false), scans: 1,
		rest: route("GET", "/api/monitor", nil), gql: query(`{ monitors { id } }`), mcp: tool("list_monitors", nil)},
	{name: "monitors, key without the scope", rest: route("GET", "/api/monitor", nil), gql: query(`{ monitors { id } }`), mcp: tool("list_monitors", nil), want: app.CodeForbidden},
	monitorCase("check monitor now", watched(false), "POST", "/api/monitor/check?id=", `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, "", 2),
	monitorCase("check monitor now, page broken", func(e *apptest.Env, c *caller) {
		watched(false)(e, c)
		e.Docs.Set(c.page, apptest.Page{Status: http.StatusInternalServerError})
	}, "POST", "/api/monitor/check?id=", `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, "", 1),
	monitorCase("check monitor now, unknown id", unknown, "POST", "/api/monitor/check?id=", `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, app.CodeNotFound, 0),
	monitorCase("delete monitor", watched(false), "DELETE", "/api/monitor?id=", `mutation($id: ID!) { deleteMonitor(id: $id) { deleted } }`, "", 1),
	monitorCase("delete monitor, another account's", func(e *apptest.Env, c *caller) {
		other, _ := e.MustAccount("")
		theirs := &caller{bearer: e.MustKey(other, "monitor").RawKey}
		watched(false)(e, theirs)
		c.target = theirs.target
	}, "DELETE", "/api/monitor?id=", `mutation($id: ID!) { deleteMonitor(id: $id) { deleted } }`, app.CodeNotFound, 0),
	{name: "alerts", scopes: []string{"monitor"}, setup: watched(true), scans: 2,
		rest: route("GET", "/api/monitor/alerts?unread=true&limit=5", nil), gql: query(`{ alerts(unread: true, limit: 5) { alerts { id } nextCursor } }`),
		mcp: tool("list_alerts", map[string]any{"unread": true, "limit": 5})},
	{name: "alerts, limit 0", scopes: []string{"monitor"},
		rest: route("GET", "/api/monitor/alerts?limit=0", nil), gql: query(`{ alerts(limit: 0) { nextCursor } }`), mcp: tool("list_alerts", map[string]any{"limit": 0}), want: app.CodeInvalid},
	updateMonitorCase("update monitor", watched(false), "risk", "", 1),
	updateMonitorCase("update monitor, alertOn unknown", watched(false), "sometimes", app.CodeInvalid, 1),
	updateMonitorCase("update monitor, unknown id", unknown, "risk", app.CodeNotFound, 0),
	alertsUpdateCase("alerts update", watched(true), "", 2),
	alertsUpdateCase("alerts update, not a UUID", func(e *apptest.Env, c *caller) { c.target = "x" }, app.CodeInvalid, 0),

	{name: "no credential", setup: func(e *apptest.Env, c *caller) { c.bearer = "" },
		rest: route("GET", "/api/developer/keys", nil), gql: query(`{ apiKeys { id } }`), want: app.CodeUnauthenticated},
}

// createMonitorCase creates a monitor of path, with interval (nil: the default).
func createMonitorCase(name, path string, interval any, want app.Code, scans int) parityCase {
	in := func(e *apptest.Env) map[string]any {
		return map[string]any{"url": url(e, path), "name": "terms", "intervalSeconds": interval}
	}
	return parityCase{name: name, scopes: []string{"monitor"}, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) { return "POST", "/api/monitor", in(e) },
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($in: CreateMonitorInput!) { createMonitor(input: $in) { id } }`, map[string]any{"in": in(e)}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) { return "create_monitor", in(e) }}
}

// watched gives the caller a monitor (one scan) of a page of its own and
// makes the monitor the target. changed: the page then gets a new clause
// and is checked now (one more scan), and the alert it raises is the target.
func watched(changed bool) func(*apptest.Env, *caller) {
	return func(e *apptest.Env, c *caller) {
		c.page = "/watched/" + c.bearer[len(c.bearer)-12:]
		e.Docs.Set(c.page, apptest.Page{ContentType: "text/html", Body: strings.Replace(apptest.TermsPage, "<p>Any dispute", "<p>No dispute", 1)})
		ctx := e.Ctx(c.bearer)
		m, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL(c.page)})
		if err != nil {
			e.T.Fatal(err)
		}
		c.target = m.ID
		if !changed {
			return
		}
		e.Docs.Set(c.page, apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})
		if _, err := e.Mon.CheckMonitor(ctx, m.ID); err != nil {
			e.T.Fatal(err)
		}
		page, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{})
		if err != nil || len(page.Alerts) != 1 {
			e.T.Fatalf("alerts after a change: %+v %v", page, err)
		}
		c.target = page.Alerts[0].ID
	}
}

func unknown(e *apptest.Env, c *caller) { c.target = "6f1c1f8e-0000-4000-8000-000000000000" }

// monitorCase sends the target as REST's id parameter (appended to path) and
// GraphQL's $id.
func monitorCase(name string, setup func(*apptest.Env, *caller), method, path, gql string, want app.Code, scans int) parityCase {
	return parityCase{name: name, scopes: []string{"monitor"}, setup: setup, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) { return method, path + c.target, nil },
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return gql, map[string]any{"id": c.target}
		}}
}

// updateMonitorCase sets the target monitor's alertOn.
func updateMonitorCase(name string, setup func(*apptest.Env, *caller), alertOn string, want app.Code, scans int) parityCase {
	return parityCase{name: name, scopes: []string{"monitor"}, setup: setup, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) {
			return "PATCH", "/api/monitor?id=" + c.target, map[string]any{"alertOn": alertOn}
		},
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($id: ID!, $in: UpdateMonitorInput!) { updateMonitor(id: $id, input: $in) { id alertOn } }`,
				map[string]any{"id": c.target, "in": map[string]any{"alertOn": alertOn}}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return "update_monitor", map[string]any{"id": c.target, "alertOn": alertOn}
		}}
}

func alertsUpdateCase(name string, setup func(*apptest.Env, *caller), want app.Code, scans int) parityCase {
	return parityCase{name: name, scopes: []string{"monitor"}, setup: setup, want: want, scans: scans,
		rest: func(e *apptest.Env, c *caller) (string, string, any) {
			return "PATCH", "/api/monitor/alerts", map[string]any{"ids": []string{c.target}, "read": true}
		},
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($ids: [ID!]!) { updateAlerts(ids: $ids, read: true) { updated } }`, map[string]any{"ids": []string{c.target}}
		},
		mcp: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return "mark_alerts", map[string]any{"ids": []string{c.target}, "read": true}
		}}
}

func revokeCase(name string, setup func(*apptest.Env, *caller), want app.Code) parityCase {
	return parityCase{name: name, session: true, setup: setup, want: want,
		rest: func(e *apptest.Env, c *caller) (string, string, any) {
			return "DELETE", "/api/developer/keys/" + c.target, nil
		},
		gql: func(e *apptest.Env, c *caller) (string, map[string]any) {
			return `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, map[string]any{"id": c.target}
		}}
}

// outcome is what one transport answered, in app's terms.
type outcome struct {
	code      app.Code
	scans     int
	remaining string // RateLimit-Remaining, "" when absent
}

func TestRESTAndGraphQLAgree(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r, restBody := e.run(t, c, e.viaREST)
				g, _ := e.run(t, c, e.viaGraphQL)
				want := outcome{code: c.want, scans: c.scans, remaining: r.remaining}
				if r.code != want.code || r.scans != want.scans {
					t.Errorf("REST: %+v, want code %q and %d scans used", r, c.want, c.scans)
				}
				if g != want {
					t.Errorf("GraphQL: %+v, REST: %+v", g, r)
				}
				if c.mcp != nil {
					m, mcpBody := e.run(t, c, e.viaMCP)
					if m != want {
						t.Errorf("MCP: %+v, REST: %+v", m, r)
					}
					// The tool's output is REST's body: the same shape, key for key.
					if r.code == "" && m.code == "" {
						if rs, ms := shape(t, restBody), shape(t, mcpBody); rs != ms {
							t.Errorf("MCP's output is not REST's body:\nMCP:  %s\nREST: %s", ms, rs)
						}
					}
				}
			})
		}
	})
}

// env is one service with both transports mounted, as cmd/clausewatch mounts them.
type env struct {
	*apptest.Env
	srv *httptest.Server
}

func newEnv(t *testing.T, d dbtest.Dialect) *env {
	// Every case's page is on one host: no spacing between their checks.
	e := &env{Env: apptest.New(t, dbtest.Open(t, d), apptest.Monitoring(func(o *monitor.Options) { o.HostInterval = -1 }))}
	log := slog.New(slog.DiscardHandler)
	mux := http.NewServeMux()
	rest.Register(mux, rest.Options{Service: e.Svc, Monitors: e.Mon, Billing: e.Billing, Logger: log, Ready: func(context.Context) error { return nil }})
	mux.Handle("/graphql", graph.NewHandler(graph.Options{Service: e.Svc, Monitors: e.Mon, Logger: log}))
	mux.Handle("/mcp", mcp.NewHandler(mcp.Options{Service: e.Svc, Monitors: e.Mon, Logger: log}))
	e.srv = httptest.NewServer(middleware.Observe(log, middleware.NewMetrics(prometheus.NewRegistry()), mux))
	t.Cleanup(e.srv.Close)
	return e
}

// run gives c a fresh caller, sends it through one transport and reads the effect.
func (e *env) run(t *testing.T, c parityCase, send func(*testing.T, parityCase, *caller) (app.Code, http.Header, []byte)) (outcome, []byte) {
	t.Helper()
	tok, acct := e.MustAccount("")
	cl := &caller{token: tok, key: e.MustKey(tok, c.scopes...)}
	cl.bearer, cl.owner = cl.key.RawKey, cl.key.Key.ID
	if c.session {
		cl.bearer, cl.owner = tok, acct.ID
	}
	if c.setup != nil {
		c.setup(e.Env, cl)
	}
	code, h, body := send(t, c, cl)
	return outcome{code: code, scans: e.ScansUsed(cl.owner), remaining: h.Get("RateLimit-Remaining")}, body
}

// viaREST maps the status back to the code REST's table gives it.
func (e *env) viaREST(t *testing.T, c parityCase, cl *caller) (app.Code, http.Header, []byte) {
	method, path, body := c.rest(e.Env, cl)
	res, b := e.post(t, method, path, cl.bearer, body)
	if res.StatusCode < 300 {
		return "", res.Header, b
	}
	for _, code := range codes {
		if rest.Status(code) == res.StatusCode {
			return code, res.Header, b
		}
	}
	t.Fatalf("REST answered %d %s, a status no app code maps to", res.StatusCode, b)
	return "", nil, nil
}

// viaGraphQL reads the first error's extensions.code, app's code upper-cased.
func (e *env) viaGraphQL(t *testing.T, c parityCase, cl *caller) (app.Code, http.Header, []byte) {
	q, vars := c.gql(e.Env, cl)
	res, b := e.post(t, "POST", "/graphql", cl.bearer, map[string]any{"query": q, "variables": vars})
	var out struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("GraphQL answered %d %s", res.StatusCode, b)
	}
	if len(out.Errors) == 0 {
		return "", res.Header, b
	}
	return app.Code(strings.ToLower(out.Errors[0].Extensions.Code)), res.Header, b
}

// viaMCP calls the case's tool through the SDK's client and reads the code
// of a failed call's structured content.
func (e *env) viaMCP(t *testing.T, c parityCase, cl *caller) (app.Code, http.Header, []byte) {
	name, args := c.mcp(e.Env, cl)
	rt := &keyed{bearer: cl.bearer}
	client := sdk.NewClient(&sdk.Implementation{Name: "parity", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: rt}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("MCP connect: %v", err)
	}
	defer s.Close()
	res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("MCP %s: %v", name, err)
	}
	text := []byte(res.Content[0].(*sdk.TextContent).Text)
	if !res.IsError {
		return "", rt.last, text
	}
	var out struct {
		Code   string
		Status int
	}
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatalf("MCP %s: %v", name, err)
	}
	if want := rest.Status(app.Code(out.Code)); out.Status != want {
		t.Errorf("MCP %s: status %d for %s, REST's table says %d", name, out.Status, out.Code, want)
	}
	return app.Code(out.Code), rt.last, text
}

// keyed sends the caller's credential and keeps the last response's headers.
type keyed struct {
	bearer string
	last   http.Header
}

func (k *keyed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if k.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+k.bearer)
	}
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		k.last = res.Header
	}
	return res, err
}

func (e *env) post(t *testing.T, method, path, bearer string, body any) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// codes are app's error codes, for reading a REST status back.
var codes = []app.Code{
	app.CodeInvalid, app.CodeUnauthenticated, app.CodeForbidden, app.CodeNotFound, app.CodeConflict,
	app.CodeRateLimited, app.CodeUnreadable, app.CodeUpstream, app.CodeTimeout, app.CodeUnavailable,
	app.CodeTooLarge, app.CodeUnsupportedType, app.CodeInternal,
}

// shape is a JSON body's keys, object by object (an array by its first
// element), with each leaf's JSON kind: two bodies of one Go type have one
// shape whatever their values.
func shape(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not JSON: %s", body)
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = k + ":" + walk(v[k])
			}
			return "{" + strings.Join(parts, ",") + "}"
		case []any:
			if len(v) == 0 {
				return "[]"
			}
			return "[" + walk(v[0]) + "]"
		case nil:
			return "null"
		default:
			return fmt.Sprintf("%T", v)
		}
	}
	return walk(v)
}

// Every MCP tool is in the parity table: a tool without a case could
// answer what REST does not.
func TestParityCoversEveryTool(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	covered := map[string]bool{}
	for _, c := range cases {
		if c.mcp != nil {
			name, _ := c.mcp(e.Env, &caller{})
			covered[name] = true
		}
	}
	tok, _ := e.MustAccount("")
	rt := &keyed{bearer: e.MustKey(tok).RawKey}
	client := sdk.NewClient(&sdk.Implementation{Name: "parity", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: rt}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if !covered[tl.Name] {
			t.Errorf("MCP tool %s has no case in the parity table", tl.Name)
		}
	}
}
