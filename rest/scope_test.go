package rest_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// Every scoped route of interface.md 5.3 with the scope it needs.
var scopedRoutes = []struct {
	method, path, scope string
	body                any
}{
	{"POST", "/api/extract", "extract", map[string]any{"url": "http://127.0.0.1:1/terms"}},
	{"POST", "/api/analyze", "analyze", map[string]any{"text": "We may change these terms at any time."}},
	{"POST", "/api/analyze/batch", "analyze", map[string]any{"items": []any{map[string]any{"text": "Hello."}}}},
	{"POST", "/api/monitor", "monitor", map[string]any{"url": "http://127.0.0.1:1/terms"}},
	{"GET", "/api/monitor", "monitor", nil},
	{"DELETE", "/api/monitor?id=6f1c1f8e-0000-4000-8000-000000000000", "monitor", nil},
	{"POST", "/api/monitor/check?id=6f1c1f8e-0000-4000-8000-000000000000", "monitor", nil},
	{"GET", "/api/monitor/alerts", "monitor", nil},
	{"PATCH", "/api/monitor/alerts", "monitor", map[string]any{"ids": []string{}, "read": true}},
}

func TestScopes(t *testing.T) {
	scopeSets := [][]string{{"extract"}, {"analyze"}, {"monitor"}, {"extract", "analyze"}, {"extract", "analyze", "monitor"}}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, acct := e.MustAccount("scopes@example.com")
		e.SetTier(acct.ID, app.TierAdvanced) // a key for each set: more than free's 3
		for _, set := range scopeSets {
			key := e.MustKey(tok, set...)
			for _, r := range scopedRoutes {
				res := e.do(r.method, r.path, key.RawKey, r.body)
				allowed := slices.Contains(set, r.scope)
				if !allowed {
					if res.status != http.StatusForbidden {
						t.Errorf("%v %s %s: %d, want 403", set, r.method, r.path, res.status)
						continue
					}
					m := res.json(t)
					if m["error"] != "API key missing required scope: "+r.scope || m["requiredScope"] != r.scope || len(m) != 2 {
						t.Errorf("%v %s %s: body %s", set, r.method, r.path, res.body)
					}
					continue
				}
				if res.status == http.StatusForbidden || res.status == http.StatusUnauthorized {
					t.Errorf("%v %s %s: %d %s, want the scope to admit it", set, r.method, r.path, res.status, res.body)
				}
			}
		}
		// An account session is not scope-limited.
		for _, r := range scopedRoutes {
			if res := e.do(r.method, r.path, tok, r.body); res.status == http.StatusForbidden || res.status == http.StatusUnauthorized {
				t.Errorf("session %s %s: %d", r.method, r.path, res.status)
			}
		}
	})
}

// The route checks the scope before reading the body: a key without the
// scope hears 403 whatever it sent, never 400, 413 or 415.
func TestScopeBeforeBody(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	tok, _ := e.MustAccount("order@example.com")
	monitorOnly := e.MustKey(tok, "monitor")
	for _, path := range []string{"/api/extract", "/api/analyze", "/api/analyze/batch"} {
		for name, body := range map[string][]byte{"malformed": []byte(`{"url":`), "unknown field": []byte(`{"nope":1}`), "empty": nil} {
			res := e.do("POST", path, monitorOnly.RawKey, body, "Content-Type", "text/plain")
			if res.status != http.StatusForbidden {
				t.Errorf("%s with a %s non-JSON body: %d %s, want 403", path, name, res.status, res.body)
			}
		}
	}
}

func TestStrictJSON(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	tok, _ := e.MustAccount("json@example.com")
	big := append([]byte(`{"name":"`), bytes.Repeat([]byte("a"), 2<<20)...)
	big = append(big, `"}`...)
	cases := []struct {
		name        string
		body        []byte
		contentType string
		want        int
		field       string
	}{
		{"no content type", []byte(`{"name":"k"}`), "", http.StatusUnsupportedMediaType, ""},
		{"text/plain", []byte(`{"name":"k"}`), "text/plain", http.StatusUnsupportedMediaType, ""},
		{"over 2 MiB", big, "application/json", http.StatusRequestEntityTooLarge, ""},
		{"malformed", []byte(`{"name":`), "application/json", http.StatusBadRequest, "body"},
		{"not an object", []byte(`[1,2]`), "application/json", http.StatusBadRequest, "body"},
		{"unknown field", []byte(`{"name":"k","admin":true}`), "application/json", http.StatusBadRequest, "admin"},
		{"wrong type", []byte(`{"name":42}`), "application/json", http.StatusBadRequest, "name"},
		{"two values", []byte(`{"name":"k"}{"name":"j"}`), "application/json", http.StatusBadRequest, "body"},
		{"two values, the second unknown", []byte(`{"name":"k"}{"text":"j"}`), "application/json", http.StatusBadRequest, "body"},
		{"a name in capitals", []byte(`{"NAME":"k"}`), "application/json", http.StatusBadRequest, "NAME"},
		{"a name in another case beside it", []byte(`{"name":"k","Scopes":["extract"]}`), "application/json", http.StatusBadRequest, "Scopes"},
		{"a key twice", []byte(`{"name":"k","name":"j"}`), "application/json", http.StatusBadRequest, "name"},
		{"empty", []byte(``), "application/json", http.StatusBadRequest, "body"},
		{"charset param ok", []byte(`{"name":"k"}`), "application/json; charset=utf-8", http.StatusCreated, ""},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/developer/keys", bytes.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+tok)
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		res, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		buf.ReadFrom(res.Body)
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, res.StatusCode, buf.String(), c.want)
			continue
		}
		if c.want >= 400 && !strings.Contains(buf.String(), `"error"`) {
			t.Errorf("%s: body %s lacks error", c.name, buf.String())
		}
		if c.field != "" && !strings.Contains(buf.String(), `"field":"`+c.field+`"`) {
			t.Errorf("%s: body %s lacks details for %q", c.name, buf.String(), c.field)
		}
	}
	// Only the one valid request created a key.
	if keys := e.do("GET", "/api/developer/keys", tok, nil).json(t)["keys"].([]any); len(keys) != 1 {
		t.Errorf("%d keys after strictness cases, want 1", len(keys))
	}
}

func TestOperationalEndpoints(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/openapi.json": 200, "/api/nope": 404} {
		req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
		res, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, res.StatusCode, want)
		}
		if res.Header.Get("X-Request-Id") == "" {
			t.Errorf("GET %s: no X-Request-Id", path)
		}
	}
}
