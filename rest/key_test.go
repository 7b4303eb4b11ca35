package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

func TestKeyLifecycle(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("owner@example.com")

		res := e.do("POST", "/api/developer/keys", tok, map[string]any{"name": "ci"})
		if res.status != http.StatusCreated {
			t.Fatalf("create: %d %s", res.status, res.body)
		}
		created := res.json(t)
		raw := created["rawKey"].(string)
		key := created["key"].(map[string]any)
		if len(raw) != 53 || !strings.HasPrefix(raw, "cwsk_") {
			t.Fatalf("rawKey %q", raw)
		}
		if key["keyPrefix"] != raw[:12] {
			t.Errorf("keyPrefix %v, want %q", key["keyPrefix"], raw[:12])
		}
		if got := key["scopes"].([]any); len(got) != 2 || got[0] != "extract" || got[1] != "analyze" {
			t.Errorf("default scopes %v, want [extract analyze]", got)
		}

		// The key authenticates, lists in the contract's shape, and never shows the raw key again.
		res = e.do("GET", "/api/developer/keys", raw, nil)
		if res.status != http.StatusOK {
			t.Fatalf("list: %d %s", res.status, res.body)
		}
		if strings.Contains(string(res.body), raw) {
			t.Fatal("raw key listed")
		}
		keys := res.json(t)["keys"].([]any)
		if len(keys) != 1 {
			t.Fatalf("keys %v", keys)
		}
		k := keys[0].(map[string]any)
		for _, f := range []string{"id", "name", "keyPrefix", "scopes", "requestCount", "lastUsedAt", "createdAt", "revokedAt"} {
			if _, ok := k[f]; !ok {
				t.Errorf("listed key lacks %q: %v", f, k)
			}
		}
		if k["revokedAt"] != nil {
			t.Errorf("revokedAt %v, want null", k["revokedAt"])
		}
		if ts := k["createdAt"].(string); len(ts) != len("2006-01-02T15:04:05.000Z") || !strings.HasSuffix(ts, "Z") {
			t.Errorf("createdAt %q not ISO 8601 UTC with milliseconds", ts)
		}

		// requestCount rises: counted off the request path, flushed in batches.
		e.do("GET", "/api/developer/keys", raw, nil)
		e.Flush()
		k = e.do("GET", "/api/developer/keys", tok, nil).json(t)["keys"].([]any)[0].(map[string]any)
		if k["requestCount"].(float64) != 2 || k["lastUsedAt"] == nil {
			t.Errorf("after two key requests: requestCount %v lastUsedAt %v", k["requestCount"], k["lastUsedAt"])
		}

		// Soft revoke: 200 with the key, 401 at once, hidden unless asked for.
		id := key["id"].(string)
		res = e.do("DELETE", "/api/developer/keys/"+id, tok, nil)
		if res.status != http.StatusOK || res.json(t)["revokedAt"] == nil {
			t.Fatalf("revoke: %d %s", res.status, res.body)
		}
		if res := e.do("GET", "/api/developer/keys", raw, nil); res.status != http.StatusUnauthorized {
			t.Errorf("revoked key: %d, want 401", res.status)
		}
		if keys := e.do("GET", "/api/developer/keys", tok, nil).json(t)["keys"].([]any); len(keys) != 0 {
			t.Errorf("revoked key still listed: %v", keys)
		}
		keys = e.do("GET", "/api/developer/keys?includeRevoked=true", tok, nil).json(t)["keys"].([]any)
		if len(keys) != 1 || keys[0].(map[string]any)["revokedAt"] == nil {
			t.Errorf("includeRevoked: %v", keys)
		}
	})
}

func TestKeyCreateValidation(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("v@example.com")
		for name, body := range map[string]any{
			"no name":       map[string]any{},
			"blank name":    map[string]any{"name": "   "},
			"unknown scope": map[string]any{"name": "x", "scopes": []string{"admin"}},
			"repeated":      map[string]any{"name": "x", "scopes": []string{"extract", "extract"}},
			"long name":     map[string]any{"name": strings.Repeat("n", 101)},
		} {
			res := e.do("POST", "/api/developer/keys", tok, body)
			if res.status != http.StatusBadRequest {
				t.Errorf("%s: %d %s, want 400", name, res.status, res.body)
				continue
			}
			if m := res.json(t); m["error"] == nil || len(m["details"].([]any)) == 0 {
				t.Errorf("%s: body %s lacks error and details", name, res.body)
			}
		}
		if keys := e.do("GET", "/api/developer/keys", tok, nil).json(t)["keys"].([]any); len(keys) != 0 {
			t.Errorf("invalid requests created keys: %v", keys)
		}
	})
}

// One key over the plan's cap is 403 with keyLimit, and nothing is created.
func TestKeyLimitBody(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("")
		for range 3 {
			e.MustKey(tok)
		}
		res := e.do("POST", "/api/developer/keys", tok, map[string]any{"name": "fourth"})
		if want := `{"error":"API key limit reached for this plan","keyLimit":3}`; res.status != http.StatusForbidden || contractBody(t, res.body) != want {
			t.Errorf("fourth key on free: %d %s, want 403 %s", res.status, res.body, want)
		}
		if keys := e.do("GET", "/api/developer/keys", tok, nil).json(t)["keys"].([]any); len(keys) != 3 {
			t.Errorf("%d keys after the refusal, want 3", len(keys))
		}
	})
}

func TestUnauthenticated(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("u@example.com")
		revoked := e.MustKey(tok)
		e.do("DELETE", "/api/developer/keys/"+revoked.Key.ID, tok, nil)
		good := app.NewRawKey()
		cases := map[string]string{
			"missing":          "",
			"malformed":        "hello",
			"bad checksum":     good[:52] + flip(good[52]),
			"unknown":          good,
			"revoked":          revoked.RawKey,
			"bad session":      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
			"wrong prefix key": "cwpk_" + good[5:],
		}
		var first string
		for name, cred := range cases {
			for _, path := range []string{"/api/developer/keys", "/api/extract"} {
				method := "GET"
				var body any
				if path == "/api/extract" {
					method, body = "POST", map[string]string{"url": "http://127.0.0.1:1/terms"}
				}
				res := e.do(method, path, cred, body)
				if res.status != http.StatusUnauthorized {
					t.Errorf("%s %s: %d, want 401", name, path, res.status)
					continue
				}
				if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s: WWW-Authenticate %q", name, res.header.Get("WWW-Authenticate"))
				}
				msg := res.json(t)["error"].(string)
				if first == "" {
					first = msg
				} else if msg != first {
					t.Errorf("%s: message %q differs from %q: it must not say which failure", name, msg, first)
				}
			}
		}
	})
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}
