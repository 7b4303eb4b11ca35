package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/graph/model"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/session"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// env is the shared harness's service with the GraphQL handler in front.
type env struct {
	*apptest.Env
	h   http.Handler
	log *syncBuffer
}

type options struct {
	introspection bool
	wrap          func(apptest.Store) apptest.Store
}

func newEnv(t *testing.T, d dbtest.Dialect, o options) *env {
	t.Helper()
	var store apptest.Store = dbtest.Open(t, d)
	if o.wrap != nil {
		store = o.wrap(store)
	}
	e := &env{Env: apptest.New(t, store), log: &syncBuffer{}}
	h := graph.NewHandler(graph.Options{Service: e.Svc, Monitors: e.Mon, Logger: slog.New(slog.NewTextHandler(e.log, nil)), Introspection: o.introspection})
	// As in the server: Observe carries the per-request info the usage log reads.
	e.h = middleware.Observe(slog.New(slog.DiscardHandler), middleware.NewMetrics(prometheus.NewRegistry()), h)
	return e
}

type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type response struct {
	status int
	header http.Header
	body   string
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

func (r *response) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// do POSTs one operation with bearer ("" for none).
func (e *env) do(t *testing.T, bearer, query string, vars map[string]any) *response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	r := &response{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
	if err := json.Unmarshal(rec.Body.Bytes(), r); err != nil {
		t.Fatalf("response is not JSON (%d): %q", rec.Code, rec.Body.String())
	}
	return r
}

// mustData runs an operation that must succeed and decodes its data into v.
func (e *env) mustData(t *testing.T, bearer, query string, vars map[string]any, v any) {
	t.Helper()
	r := e.do(t, bearer, query, vars)
	if r.status != http.StatusOK || len(r.Errors) > 0 {
		t.Fatalf("%s: status %d, body %s", query, r.status, r.body)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode data: %v (%s)", err, r.Data)
	}
}

type apiKey struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	KeyPrefix    string   `json:"keyPrefix"`
	Scopes       []string `json:"scopes"`
	RequestCount int64    `json:"requestCount"`
	LastUsedAt   *string  `json:"lastUsedAt"`
	CreatedAt    string   `json:"createdAt"`
	RevokedAt    *string  `json:"revokedAt"`
}

const keyFields = `id name keyPrefix scopes requestCount lastUsedAt createdAt revokedAt`

func TestViewerAndKeys(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok, app.ScopeMonitor)
		raw, key := k.RawKey, k.Key

		for _, c := range []struct{ name, bearer string }{{"session", tok}, {"key", raw}} {
			t.Run(c.name, func(t *testing.T) {
				var got struct {
					Viewer struct {
						ID                 string `json:"id"`
						Email              string `json:"email"`
						Tier               string `json:"tier"`
						SubscriptionStatus string `json:"subscriptionStatus"`
						Credits            int    `json:"credits"`
					} `json:"viewer"`
					APIKeys []apiKey `json:"apiKeys"`
				}
				e.mustData(t, c.bearer, `{ viewer { id email tier subscriptionStatus credits } apiKeys { `+keyFields+` } }`, nil, &got)
				if got.Viewer.ID != acct.ID || got.Viewer.Email != acct.Email || got.Viewer.Tier != "free" || got.Viewer.Credits != 0 {
					t.Errorf("viewer = %+v, want account %s %s free 0", got.Viewer, acct.ID, acct.Email)
				}
				if len(got.APIKeys) != 1 {
					t.Fatalf("apiKeys = %+v, want the one key", got.APIKeys)
				}
				k := got.APIKeys[0]
				if k.ID != key.ID || k.Name != "test" || k.KeyPrefix != raw[:12] || strings.Join(k.Scopes, ",") != "monitor" || k.RevokedAt != nil {
					t.Errorf("apiKeys[0] = %+v, want key %s", k, key.ID)
				}
				if _, err := time.Parse(model.TimeFormat, k.CreatedAt); err != nil || !strings.HasSuffix(k.CreatedAt, "Z") || len(k.CreatedAt) != 24 {
					t.Errorf("createdAt %q is not ISO 8601 UTC with milliseconds", k.CreatedAt)
				}
			})
		}
	})
}

func TestCreateApiKey(t *testing.T) {
	const create = `mutation($name: String!, $scopes: [String!]) { createApiKey(name: $name, scopes: $scopes) { rawKey key { ` + keyFields + ` } } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, acct := e.MustAccount("")

		t.Run("session", func(t *testing.T) {
			var got struct {
				CreateAPIKey struct {
					RawKey string `json:"rawKey"`
					Key    apiKey `json:"key"`
				} `json:"createApiKey"`
			}
			e.mustData(t, tok, create, map[string]any{"name": "ci"}, &got)
			c := got.CreateAPIKey
			if len(c.RawKey) != app.KeyLength || !strings.HasPrefix(c.RawKey, app.KeyPrefix) || !app.WellFormedKey(c.RawKey) {
				t.Errorf("rawKey %q is not a well-formed key", c.RawKey)
			}
			if c.Key.KeyPrefix != c.RawKey[:12] || c.Key.Name != "ci" || strings.Join(c.Key.Scopes, ",") != "extract,analyze" {
				t.Errorf("key = %+v, want prefix %q, name ci, default scopes", c.Key, c.RawKey[:12])
			}
			// The new key authenticates at once.
			var v struct {
				Viewer struct{ ID string } `json:"viewer"`
			}
			e.mustData(t, c.RawKey, `{ viewer { id } }`, nil, &v)
			if v.Viewer.ID != acct.ID {
				t.Errorf("new key's viewer = %q, want %q", v.Viewer.ID, acct.ID)
			}
		})

		t.Run("key cannot mint keys", func(t *testing.T) {
			raw := e.MustKey(tok, app.ScopeExtract, app.ScopeAnalyze, app.ScopeMonitor).RawKey
			r := e.do(t, raw, create, map[string]any{"name": "nope"})
			if r.code() != "FORBIDDEN" || string(r.Data) != `{"createApiKey":null}` {
				t.Errorf("createApiKey with a key: %s, want FORBIDDEN and no key", r.body)
			}
		})

		t.Run("invalid scope", func(t *testing.T) {
			r := e.do(t, tok, create, map[string]any{"name": "x", "scopes": []string{"admin"}})
			if r.code() != "INVALID" {
				t.Fatalf("bad scope: %s, want INVALID", r.body)
			}
			details, _ := r.Errors[0].Extensions["details"].([]any)
			if len(details) == 0 {
				t.Errorf("INVALID without details: %s", r.body)
			}
		})
	})
}

func TestRevokeApiKey(t *testing.T) {
	const revoke = `mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		raw, key := k.RawKey, k.Key
		otherTok, _ := e.MustAccount("")
		otherKey := e.MustKey(otherTok).Key

		for _, c := range []struct{ name, id string }{
			{"another account's key", otherKey.ID},
			{"unknown id", "00000000-0000-4000-8000-000000000000"},
			{"not a uuid", "nope"},
		} {
			t.Run(c.name, func(t *testing.T) {
				if r := e.do(t, tok, revoke, map[string]any{"id": c.id}); r.code() != "NOT_FOUND" {
					t.Errorf("revoke %s: %s, want NOT_FOUND", c.id, r.body)
				}
			})
		}

		var got struct {
			RevokeAPIKey struct {
				ID        string  `json:"id"`
				RevokedAt *string `json:"revokedAt"`
			} `json:"revokeApiKey"`
		}
		e.mustData(t, tok, revoke, map[string]any{"id": key.ID}, &got)
		if got.RevokeAPIKey.ID != key.ID || got.RevokeAPIKey.RevokedAt == nil {
			t.Fatalf("revoke = %+v, want %s with revokedAt", got.RevokeAPIKey, key.ID)
		}
		if r := e.do(t, raw, `{ viewer { id } }`, nil); r.status != http.StatusUnauthorized {
			t.Errorf("revoked key: status %d, want 401", r.status)
		}
		var list struct {
			Active []apiKey `json:"active"`
			All    []apiKey `json:"all"`
		}
		e.mustData(t, tok, `{ active: apiKeys { id } all: apiKeys(includeRevoked: true) { id revokedAt } }`, nil, &list)
		if len(list.Active) != 0 || len(list.All) != 1 || list.All[0].RevokedAt == nil {
			t.Errorf("after revoke: active %+v, all %+v; want none and the revoked one", list.Active, list.All)
		}
	})
}

// scopedOps are every operation a key needs a scope for. Inputs point at
// loopback, which app refuses before fetching, so nothing leaves the machine.
var scopedOps = []struct {
	name, scope, query string
}{
	{"extract", app.ScopeExtract, `mutation { extract(url: "http://127.0.0.1:1/terms") { url } }`},
	{"analyze", app.ScopeAnalyze, `mutation { analyze(input: {url: "http://127.0.0.1:1/terms"}) { id } }`},
	{"analyzeBatch", app.ScopeAnalyze, `mutation { analyzeBatch(items: [{url: "http://127.0.0.1:1/terms"}]) { results { index ok } } }`},
	{"analysis", app.ScopeAnalyze, `{ analysis(id: "00000000-0000-4000-8000-000000000000") { id } }`},
	{"analyses", app.ScopeAnalyze, `{ analyses(limit: 5) { analyses { id } nextCursor } }`},
	{"monitors", app.ScopeMonitor, `{ monitors { id } }`},
	{"alerts", app.ScopeMonitor, `{ alerts(unread: true) { alerts { id } nextCursor } }`},
	{"createMonitor", app.ScopeMonitor, `mutation { createMonitor(input: {url: "http://127.0.0.1:1/terms"}) { id } }`},
	{"updateMonitor", app.ScopeMonitor, `mutation { updateMonitor(id: "00000000-0000-4000-8000-000000000000", input: {alertOn: "risk"}) { id } }`},
	{"deleteMonitor", app.ScopeMonitor, `mutation { deleteMonitor(id: "00000000-0000-4000-8000-000000000000") { deleted } }`},
	{"checkMonitor", app.ScopeMonitor, `mutation { checkMonitor(id: "00000000-0000-4000-8000-000000000000") { id } }`},
	{"updateAlerts", app.ScopeMonitor, `mutation { updateAlerts(ids: ["00000000-0000-4000-8000-000000000000"], read: true) { updated } }`},
}

var scopeSets = [][]string{
	{app.ScopeExtract},
	{app.ScopeAnalyze},
	{app.ScopeMonitor},
	{app.ScopeExtract, app.ScopeAnalyze},
	{app.ScopeExtract, app.ScopeMonitor},
	{app.ScopeAnalyze, app.ScopeMonitor},
	{app.ScopeExtract, app.ScopeAnalyze, app.ScopeMonitor},
}

func TestScopes(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierAdvanced) // a key for each set: more than free's 3
		for _, scopes := range scopeSets {
			raw := e.MustKey(tok, scopes...).RawKey
			for _, op := range scopedOps {
				t.Run(strings.Join(scopes, "+")+"/"+op.name, func(t *testing.T) {
					r := e.do(t, raw, op.query, nil)
					if r.status != http.StatusOK {
						t.Fatalf("status %d, want 200: %s", r.status, r.body)
					}
					has := strings.Contains(","+strings.Join(scopes, ",")+",", ","+op.scope+",")
					if has {
						if r.code() == "FORBIDDEN" || r.code() == "INTERNAL" {
							t.Errorf("key with %v on %s: %s, want neither FORBIDDEN nor INTERNAL", scopes, op.name, r.body)
						}
						return
					}
					if len(r.Errors) != 1 || r.code() != "FORBIDDEN" {
						t.Fatalf("key with %v on %s: %s, want one FORBIDDEN error", scopes, op.name, r.body)
					}
					want := "API key missing required scope: " + op.scope
					if r.Errors[0].Message != want || r.Errors[0].Extensions["requiredScope"] != op.scope {
						t.Errorf("error = %+v, want message %q and requiredScope %q", r.Errors[0], want, op.scope)
					}
				})
			}
		}
		for _, op := range scopedOps {
			t.Run("session/"+op.name, func(t *testing.T) {
				r := e.do(t, tok, op.query, nil)
				if r.status != http.StatusOK || r.code() == "FORBIDDEN" || r.code() == "INTERNAL" {
					t.Errorf("session on %s: %d %s, want neither FORBIDDEN nor INTERNAL", op.name, r.status, r.body)
				}
			})
		}
		// Account operations need no scope.
		raw := e.MustKey(tok, app.ScopeMonitor).RawKey
		for _, q := range []string{`{ viewer { id } }`, `{ apiKeys { id } }`, `{ usage(days: 7) { totalRequests } }`, `{ keyLimits { tier keys { keyId status { scans { limit resetsAt } } } } }`} {
			for _, bearer := range []string{tok, raw} {
				if r := e.do(t, bearer, q, nil); r.code() == "FORBIDDEN" || r.code() == "INTERNAL" {
					t.Errorf("%s: %s, want neither FORBIDDEN nor INTERNAL", q, r.body)
				}
			}
		}
	})
}

func TestUnauthenticated(t *testing.T) {
	const wantBody = `{"errors":[{"message":"missing or invalid credentials","extensions":{"code":"UNAUTHENTICATED"}}]}`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		revoked, key := k.RawKey, k.Key
		ctx := app.WithPrincipal(context.Background(), &app.Principal{Account: *acct})
		if _, err := e.Svc.RevokeKey(ctx, key.ID); err != nil {
			t.Fatal(err)
		}
		good := app.NewRawKey()
		flip := "A"
		if good[len(good)-1] == 'A' {
			flip = "B"
		}
		badChecksum := good[:len(good)-1] + flip
		foreignToken, _ := session.MintHS256([]byte("another-secret-another-secret-00"), "x", "x@example.com", "", "", time.Hour)
		expired, _ := session.MintHS256(apptest.SessionSecret, "x", "x@example.com", "", "", -time.Hour)

		for _, c := range []struct{ name, header string }{
			{"missing", ""},
			{"garbage", "Bearer garbage"},
			{"not bearer", "Basic dXNlcjpwYXNz"},
			{"bad checksum", "Bearer " + badChecksum},
			{"unknown key", "Bearer " + good},
			{"revoked key", "Bearer " + revoked},
			{"foreign session", "Bearer " + foreignToken},
			{"expired session", "Bearer " + expired},
		} {
			t.Run(c.name, func(t *testing.T) {
				req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ viewer { id } }"}`))
				req.Header.Set("Content-Type", "application/json")
				if c.header != "" {
					req.Header.Set("Authorization", c.header)
				}
				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusUnauthorized {
					t.Errorf("status %d, want 401", rec.Code)
				}
				if got := rec.Header().Get("WWW-Authenticate"); got != `Bearer realm="clausewatch"` {
					t.Errorf("WWW-Authenticate = %q", got)
				}
				if got := strings.TrimSpace(rec.Body.String()); got != wantBody {
					t.Errorf("body = %s, want %s", got, wantBody)
				}
			})
		}
	})
}

func TestComplexityLimit(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		var q strings.Builder
		q.WriteString("{")
		for i := range 150 { // 300 fields: within MaxFields, over the complexity limit
			fmt.Fprintf(&q, " a%d: viewer { id }", i)
		}
		q.WriteString(" }")
		r := e.do(t, tok, q.String(), nil)
		if len(r.Errors) == 0 || r.code() != "COMPLEXITY_LIMIT_EXCEEDED" || (len(r.Data) > 0 && string(r.Data) != "null") {
			t.Errorf("150 aliased fields: status %d, %.300s; want refused with COMPLEXITY_LIMIT_EXCEEDED", r.status, r.body)
		}
		// A reasonable operation passes.
		var ok struct {
			Viewer struct{ ID string } `json:"viewer"`
		}
		e.mustData(t, tok, `{ viewer { id email } apiKeys { id name scopes } }`, nil, &ok)
		if graph.ComplexityLimitForTest > 300 {
			t.Errorf("complexity limit %d is too generous", graph.ComplexityLimitForTest)
		}
	})
}

func TestIntrospection(t *testing.T) {
	const schemaQuery = `{ __schema { queryType { name } } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		for _, on := range []bool{false, true} {
			t.Run(fmt.Sprint("introspection=", on), func(t *testing.T) {
				e := newEnv(t, d, options{introspection: on})
				tok, _ := e.MustAccount("")
				r := e.do(t, tok, schemaQuery, nil)
				if on && (len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"Query"`)) {
					t.Errorf("introspection on: %s", r.body)
				}
				if !on {
					for _, q := range []string{schemaQuery, `{ __type(name: "Query") { name } }`, `query { ...F } fragment F on Query { __schema { queryType { name } } }`} {
						r := e.do(t, tok, q, nil)
						if r.code() != "INTROSPECTION_DISABLED" || r.status >= 500 || string(r.Data) != "" && string(r.Data) != "null" {
							t.Errorf("introspection off, %s: %d %s, want INTROSPECTION_DISABLED and nothing run", q, r.status, r.body)
						}
					}
					if strings.Contains(e.log.String(), "ERROR") {
						t.Errorf("introspection off logged an error: %s", e.log.String())
					}
				}

				rec := httptest.NewRecorder()
				e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/graphql", nil))
				switch {
				case on && (rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Type"), "text/html")):
					t.Errorf("explorer: %d %s", rec.Code, rec.Header().Get("Content-Type"))
				case !on && (rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"NOT_FOUND"`) || rec.Header().Get("Content-Type") != "application/json"):
					t.Errorf("GET /graphql with introspection off: %d %s, want 404 JSON", rec.Code, rec.Body.String())
				}

				rec = httptest.NewRecorder()
				e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/graphql", nil))
				if rec.Code != http.StatusMethodNotAllowed {
					t.Errorf("PUT /graphql: %d, want 405", rec.Code)
				}
			})
		}
	})
}

// leakyStore fails the way a broken database does, with text that must
// never reach a caller.
type leakyStore struct{ apptest.Store }

const leak = "pq: password authentication failed for user hunter2 at 10.1.2.3"

func (leakyStore) FindAnalyses(context.Context, string, *app.PageCursor, int, bool) ([]app.Analysis, error) {
	return nil, errors.New(leak)
}

func (leakyStore) FindKeys(context.Context, app.KeyFilter) ([]app.Key, error) {
	panic(leak)
}

func TestErrorPresenter(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{wrap: func(s apptest.Store) apptest.Store { return leakyStore{s} }})
		tok, _ := e.MustAccount("")
		for _, c := range []struct{ name, query string }{
			{"store error", `{ analyses { analyses { id } } }`},
			{"panic", `{ apiKeys { id } }`},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := strings.Count(e.log.String(), "graphql: internal error")
				r := e.do(t, tok, c.query, nil)
				if strings.Contains(r.body, "hunter2") || strings.Contains(r.body, "pq:") || strings.Contains(r.body, "panic") {
					t.Fatalf("internal error text leaked: %s", r.body)
				}
				if len(r.Errors) != 1 || r.Errors[0].Message != "internal error" || r.code() != "INTERNAL" {
					t.Errorf("errors = %s, want one INTERNAL \"internal error\"", r.body)
				}
				logs := e.log.String()
				if n := strings.Count(logs, "graphql: internal error") - before; n != 1 {
					t.Errorf("internal error logged %d times, want once", n)
				}
				if !strings.Contains(logs, "hunter2") {
					t.Errorf("the cause is not in the log: %s", logs)
				}
			})
		}
	})
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBudgetErrorExtensions checks that an app error's extra members (the
// 429 body of REST) reach extensions unchanged.
func TestBudgetErrorExtensions(t *testing.T) {
	const analyze = `mutation { analyze(input: {text: "We may terminate your account at any time without notice.", title: "Terms"}) { id grade createdAt } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeAnalyze).RawKey
		var last *response
		for range 10 {
			last = e.do(t, raw, analyze, nil)
			if last.code() != "" {
				break
			}
		}
		if last.code() != "RATE_LIMITED" {
			t.Fatalf("after repeated analyses: %s, want RATE_LIMITED", last.body)
		}
		ext := last.Errors[0].Extensions
		if last.Errors[0].Message != "Daily scan limit reached for this API key" || ext["scansRemaining"] != float64(0) ||
			ext["scansLimit"] == nil || ext["scansResetsAt"] == nil {
			t.Errorf("rate-limited error = %+v, want the contract's message and scansRemaining/scansLimit/scansResetsAt", last.Errors[0])
		}
	})
}

// usage and keyLimits give the numbers the service gives REST.
func TestUsageAndKeyLimitsNumbers(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		raw, key := k.RawKey, k.Key
		for range 2 {
			e.mustData(t, raw, `mutation { analyze(input: {text: "We may change these terms at any time."}) { grade } }`, nil, &struct{}{})
		}
		// A GraphQL error under HTTP 200 still counts as an error.
		if r := e.do(t, raw, `{ analysis(id: "nope") { id } }`, nil); r.code() != "NOT_FOUND" {
			t.Fatalf("analysis(nope): %s", r.body)
		}
		e.Flush()
		var got struct {
			Usage struct {
				TotalRequests, SuccessCount, ErrorCount int
				DailyRequests                           []struct{ Count int }
				RecentErrors                            []struct{ Path, Error string }
			}
			KeyLimits struct {
				Tier string
				Keys []struct {
					KeyID  string
					Status struct {
						Scans, AI struct{ Remaining, Limit int }
					}
				}
			}
		}
		e.mustData(t, tok, `{ usage(days: 3) { totalRequests successCount errorCount dailyRequests { count } recentErrors { path error } }
			keyLimits { tier keys { keyId status { scans { remaining limit } ai { remaining limit } } } } }`, nil, &got)
		u, kl := got.Usage, got.KeyLimits
		if u.TotalRequests != 3 || u.SuccessCount != 2 || u.ErrorCount != 1 || len(u.DailyRequests) != 3 || u.DailyRequests[2].Count != 3 ||
			len(u.RecentErrors) != 1 || u.RecentErrors[0].Path != "/graphql" {
			t.Errorf("usage %+v", u)
		}
		if kl.Tier != "free" || len(kl.Keys) != 1 || kl.Keys[0].KeyID != key.ID || kl.Keys[0].Status.Scans.Remaining != 3 ||
			kl.Keys[0].Status.Scans.Limit != 5 || kl.Keys[0].Status.AI.Remaining != 5 {
			t.Errorf("keyLimits %+v", kl)
		}
	})
}

// keyLimits.account is the session's own pool beside the keys': the portal's
// scans count there, the key's in its own, each with its limit.
func TestKeyLimitsAccountPool(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok).RawKey
		e.mustData(t, tok, `mutation { analyze(input: {text: "We may change these terms at any time."}) { grade } }`, nil, &struct{}{})
		for range 2 {
			e.mustData(t, raw, `mutation { analyze(input: {text: "We may sell your data."}) { grade } }`, nil, &struct{}{})
		}
		type budget struct {
			Allowed          bool
			Remaining, Limit int
			ResetsAt         int64
		}
		var got struct {
			KeyLimits struct {
				Keys []struct {
					Status struct{ Scans budget }
				}
				Account struct {
					Scans, AI budget
					Credits   int
				}
			}
		}
		e.mustData(t, tok, `{ keyLimits { keys { status { scans { allowed remaining limit resetsAt } } }
			account { scans { allowed remaining limit resetsAt } ai { allowed remaining limit resetsAt } credits } } }`, nil, &got)
		kl := got.KeyLimits
		if a := kl.Account; !a.Scans.Allowed || a.Scans.Remaining != 4 || a.Scans.Limit != 5 || a.Scans.ResetsAt == 0 ||
			a.AI.Remaining != 5 || a.AI.Limit != 5 || a.Credits != 0 {
			t.Errorf("account pool %+v", a)
		}
		if len(kl.Keys) != 1 || kl.Keys[0].Status.Scans.Remaining != 3 {
			t.Errorf("keys %+v", kl.Keys)
		}
	})
}

// An analysis carries the text its offsets count into, reads back by id, and
// analyses refuses a limit outside 1..100 rather than guessing.
func TestAnalysisTextAndPaging(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeAnalyze).RawKey
		const text = "Terms 🚀\n\nWe may terminate your account at any time without notice."
		res := e.do(t, raw, `mutation($t: String!) { analyze(input: {text: $t}) { id text findings { quote start end } } }`, map[string]any{"t": text})
		var got struct {
			Analyze struct {
				ID       string
				Text     string
				Findings []struct {
					Quote      string
					Start, End int
				}
			}
		}
		if err := json.Unmarshal(res.Data, &got); err != nil || got.Analyze.Text != text || len(got.Analyze.Findings) == 0 {
			t.Fatalf("analyze: %s", res.body)
		}
		f := got.Analyze.Findings[0]
		if string([]rune(text)[f.Start:f.End]) != f.Quote {
			t.Errorf("quote %q is not text[%d:%d]", f.Quote, f.Start, f.End)
		}
		res = e.do(t, raw, `query($id: ID!) { analysis(id: $id) { text } }`, map[string]any{"id": got.Analyze.ID})
		if !strings.Contains(string(res.Data), "without notice") {
			t.Errorf("stored analysis: %s", res.body)
		}
		for _, limit := range []int{0, 101} {
			res = e.do(t, raw, `query($n: Int) { analyses(limit: $n) { analyses { id } } }`, map[string]any{"n": limit})
			if res.code() != "INVALID" {
				t.Errorf("analyses(limit: %d): %s, want INVALID", limit, res.body)
			}
		}
		// a page reads the texts only when asked for, directly or through a
		// fragment (a page of texts holds at most four: TestResponseTextLimit)
		for _, q := range []string{
			`{ analyses(limit: 4) { analyses { id text } nextCursor } }`,
			`{ analyses(limit: 4) { ...page } } fragment page on AnalysisPage { analyses { id ... on Analysis { text } } }`,
		} {
			res = e.do(t, raw, q, nil)
			if res.code() != "" || !strings.Contains(string(res.Data), got.Analyze.ID) || !strings.Contains(string(res.Data), "without notice") {
				t.Errorf("%s: %s", q, res.body)
			}
		}
	})
}

// Operations that draw on a budget answer with REST's RateLimit-* headers,
// for the last budgeted field of the operation; others carry none.
func TestRateLimitHeaders(t *testing.T) {
	const twice = `mutation { a: analyze(input: {text: "We may change these terms."}) { id } b: analyze(input: {text: "We may sell your data."}) { id } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		e.Clock.Set(time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)) // an hour to midnight
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok).RawKey
		headers := func(r *response) [3]string {
			return [3]string{r.header.Get("RateLimit-Limit"), r.header.Get("RateLimit-Remaining"), r.header.Get("RateLimit-Reset")}
		}
		if r := e.do(t, raw, `{ viewer { id } }`, nil); headers(r) != [3]string{} {
			t.Errorf("unbudgeted query: RateLimit headers %v", headers(r))
		}
		for _, want := range []struct {
			code    string
			headers [3]string
		}{
			{"", [3]string{"5", "3", "3600"}},
			{"", [3]string{"5", "1", "3600"}},
			{"RATE_LIMITED", [3]string{"5", "0", "3600"}}, // b is refused: the pool is spent
		} {
			r := e.do(t, raw, twice, nil)
			if r.code() != want.code || headers(r) != want.headers {
				t.Errorf("two analyses: code %q headers %v, want %q %v (%s)", r.code(), headers(r), want.code, want.headers, r.body)
			}
		}
	})
}

// Mutations of one operation fail alone: with one scan left, the admitted
// analysis comes back beside the refused one's RATE_LIMITED error, instead of
// data: null losing a result that was charged and stored.
func TestAdmittedResultBesideRefusal(t *testing.T) {
	const twice = `mutation { a: analyze(input: {text: "We may change these terms."}) { id grade } b: analyze(input: {text: "We may sell your data."}) { id } }`
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok).RawKey
		e.mustData(t, raw, twice, nil, &struct{}{})
		e.mustData(t, raw, twice, nil, &struct{}{})
		r := e.do(t, raw, twice, nil) // one scan left for two analyses
		var got struct {
			A *struct{ ID, Grade string }
			B *struct{ ID string }
		}
		if err := json.Unmarshal(r.Data, &got); err != nil {
			t.Fatalf("data %s: %v", r.Data, err)
		}
		if got.A == nil || got.A.ID == "" || got.A.Grade == "" || got.B != nil {
			t.Fatalf("a admitted, b refused: data %s, want a's analysis and b null", r.Data)
		}
		if len(r.Errors) != 1 || r.code() != "RATE_LIMITED" || fmt.Sprint(r.Errors[0].Path) != "[b]" {
			t.Errorf("errors %+v, want one RATE_LIMITED at path b", r.Errors)
		}
		var stored struct{ Analysis struct{ ID string } }
		e.mustData(t, raw, `query($id: ID!) { analysis(id: $id) { id } }`, map[string]any{"id": got.A.ID}, &stored)
		if stored.Analysis.ID != got.A.ID {
			t.Errorf("the returned analysis %s is not the stored one %+v", got.A.ID, stored)
		}
	})
}

// A request body encoding/json would read loosely is refused with a short
// message naming the problem, never the body quoted back, and runs nothing.
func TestStrictRequestBody(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, _ := e.MustAccount("")
	raw := e.MustKey(tok).RawKey
	const analyze = `mutation($in: AnalyzeInput!) { analyze(input: $in) { id } }`
	huge := `{"query": "` + strings.Repeat("x", 1900000) + `"`
	for name, c := range map[string]struct{ body, mention string }{
		"malformed, 1.9 MB":          {huge, "malformed JSON"},
		"malformed inside":           {`{"query": "{ viewer { id } }", "variables": {"a": tru}}`, "syntax error at byte"},
		"two objects":                {`{"query":"{ viewer { id } }"}{"query":"{ viewer { id } }"}`, "more than one JSON value"},
		"query in capitals":          {`{"QUERY":"{ viewer { id } }"}`, "QUERY is not a known field"},
		"a key twice":                {`{"query":"{ viewer { id } }","query":"{ apiKeys { id } }"}`, "query appears more than once"},
		"a variable's key twice":     {`{"query":"` + analyze + `","variables":{"in":{"text":"a","text":"b"}}}`, "variables.in.text appears more than once"},
		"an input field in capitals": {`{"query":"` + analyze + `","variables":{"in":{"TEXT":"We may sell your data."}}}`, "TEXT"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+raw)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code == http.StatusOK && !strings.Contains(body, `"errors"`) || len(body) > 300 || !strings.Contains(body, c.mention) {
			t.Errorf("%s: %d %.300s, want a short error mentioning %q", name, rec.Code, body, c.mention)
		}
	}
	if n := e.ScansUsed(mustKeyID(t, e, raw)); n != 0 {
		t.Errorf("%d scans used by refused bodies", n)
	}
}

// Only a body over the limit is 413; a body whose read fails (the client
// went away mid-request) is 400, as REST answers it.
func TestBodyReadErrors(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, _ := e.MustAccount("")
	for name, c := range map[string]struct {
		body io.Reader
		want int
	}{
		"over the limit":  {strings.NewReader(`{"query":"` + strings.Repeat("x", 3<<20) + `"}`), http.StatusRequestEntityTooLarge},
		"read that fails": {io.MultiReader(strings.NewReader(`{"query":`), iotest.ErrReader(io.ErrUnexpectedEOF)), http.StatusBadRequest},
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", c.body)
		req.ContentLength = -1 // unknown, as with a chunked body: the limit is met while reading
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("%s: %d %.200s, want %d", name, rec.Code, rec.Body.String(), c.want)
		}
	}
}

func mustKeyID(t *testing.T, e *env, raw string) string {
	t.Helper()
	p, err := e.Svc.Authenticate(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return p.Key.ID
}
