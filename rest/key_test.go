package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

func TestKeyLifecycle(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("owner@example.com")

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
		if err := e.svc.FlushUsage(context.Background()); err != nil {
			t.Fatal(err)
		}
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

func TestKeyCannotMintKeys(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("a@example.com")
		k := e.mustKey(tok, "extract", "analyze", "monitor")
		res := e.do("POST", "/api/developer/keys", k.RawKey, map[string]any{"name": "child"})
		if res.status != http.StatusForbidden {
			t.Fatalf("key minting a key: %d %s, want 403", res.status, res.body)
		}
	})
}

func TestKeyCreateValidation(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("v@example.com")
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

func TestRevokeUnknownOrForeignKey(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		alice, _ := e.mustAccount("alice@example.com")
		bob, _ := e.mustAccount("bob@example.com")
		bobs := e.mustKey(bob)
		for name, id := range map[string]string{
			"another account's key": bobs.Key.ID,
			"unknown id":            "6f1c1f8e-0000-4000-8000-000000000000",
			"not a uuid":            "nope",
		} {
			if res := e.do("DELETE", "/api/developer/keys/"+id, alice, nil); res.status != http.StatusNotFound {
				t.Errorf("%s: %d %s, want 404", name, res.status, res.body)
			}
		}
		if res := e.do("GET", "/api/developer/keys", bobs.RawKey, nil); res.status != http.StatusOK {
			t.Errorf("bob's key after alice's attempt: %d", res.status)
		}
	})
}

// Revocation is visible at once to another server process on the same database.
func TestRevokeVisibleToSecondProcess(t *testing.T) {
	store1 := dbtest.Open(t, dbtest.Postgres)
	store2 := dbtest.Open(t, dbtest.Postgres)
	a, b := newEnvOn(t, store1), newEnvOn(t, store2)
	tok, _ := a.mustAccount("two@example.com")
	k := a.mustKey(tok)
	if res := b.do("GET", "/api/developer/keys", k.RawKey, nil); res.status != http.StatusOK {
		t.Fatalf("second process before revoke: %d", res.status)
	}
	if res := a.do("DELETE", "/api/developer/keys/"+k.Key.ID, tok, nil); res.status != http.StatusOK {
		t.Fatalf("revoke: %d", res.status)
	}
	if res := b.do("GET", "/api/developer/keys", k.RawKey, nil); res.status != http.StatusUnauthorized {
		t.Fatalf("second process after revoke: %d, want 401", res.status)
	}
}

func TestUnauthenticated(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("u@example.com")
		revoked := e.mustKey(tok)
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

// A key with a bad checksum is refused without a database lookup.
func TestChecksumFailureNeverReachesDatabase(t *testing.T) {
	counting := &countingStore{Store: dbtest.Open(t, dbtest.SQLite)}
	svc := app.New(app.Options{Store: counting})
	good := app.NewRawKey()
	if _, err := svc.Authenticate(context.Background(), good[:52]+flip(good[52])); app.ErrorCode(err) != app.CodeUnauthenticated {
		t.Fatalf("got %v", err)
	}
	if counting.lookups != 0 {
		t.Fatalf("%d database lookups for a key failing its checksum", counting.lookups)
	}
	if _, err := svc.Authenticate(context.Background(), good); app.ErrorCode(err) != app.CodeUnauthenticated || counting.lookups != 1 {
		t.Fatalf("well-formed unknown key: %v after %d lookups", err, counting.lookups)
	}
}

type countingStore struct {
	app.Store
	lookups int
}

func (c *countingStore) FindActiveKeyByHash(ctx context.Context, h []byte) (*app.Key, *app.Account, error) {
	c.lookups++
	return c.Store.FindActiveKeyByHash(ctx, h)
}

// Shutdown flushes the counts still held in memory.
func TestRunFlushesPendingCountsWhenStopped(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		store := dbtest.Open(t, d)
		e := newEnvOn(t, store)
		tok, acct := e.mustAccount("flush@example.com")
		k := e.mustKey(tok)
		for range 3 {
			e.do("GET", "/api/developer/keys", k.RawKey, nil)
		}
		if err := e.stopRun(); err != nil {
			t.Fatal(err)
		}
		keys, err := store.FindKeys(context.Background(), app.KeyFilter{AccountID: acct.ID})
		if err != nil || len(keys) != 1 || keys[0].RequestCount != 3 || keys[0].LastUsedAt == nil {
			t.Fatalf("after Run stopped: %+v %v", keys, err)
		}
	})
}
