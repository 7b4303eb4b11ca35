package app_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

func TestRawKeyFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 5000 {
		k := app.NewRawKey()
		if len(k) != app.KeyLength || !strings.HasPrefix(k, "cwsk_") {
			t.Fatalf("key %q: want 53 characters starting cwsk_", k)
		}
		if !app.WellFormedKey(k) {
			t.Fatalf("fresh key %q fails its own checksum", k)
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
	}
}

func TestRawKeyRejectsAnyFlippedCharacter(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		k := []byte(app.NewRawKey())
		for i := len(app.KeyPrefix); i < len(k); i++ {
			orig := k[i]
			c := alphabet[rng.IntN(len(alphabet))]
			if c == orig {
				continue
			}
			k[i] = c
			if app.WellFormedKey(string(k)) {
				t.Fatalf("key with position %d changed still passes: %s", i, k)
			}
			k[i] = orig
		}
	}
}

func TestWellFormedKeyRejects(t *testing.T) {
	good := app.NewRawKey()
	for name, k := range map[string]string{
		"empty":        "",
		"short":        good[:52],
		"long":         good + "A",
		"wrong prefix": "cwpk_" + good[5:],
		"bad alphabet": good[:10] + "+" + good[11:],
		"jwt-looking":  "eyJhbGciOiJIUzI1NiJ9.e30.sig",
	} {
		if app.WellFormedKey(k) {
			t.Errorf("%s: %q accepted", name, k)
		}
	}
}

func TestCreateKey(t *testing.T) {
	cases := []struct {
		name  string
		in    app.KeyCreate
		want  app.Code
		field string
	}{
		{"no name", app.KeyCreate{}, app.CodeInvalid, "name"},
		{"blank name", app.KeyCreate{Name: "   "}, app.CodeInvalid, "name"},
		{"long name", app.KeyCreate{Name: strings.Repeat("n", 101)}, app.CodeInvalid, "name"},
		{"unknown scope", app.KeyCreate{Name: "x", Scopes: []string{"admin"}}, app.CodeInvalid, "scopes[0]"},
		{"repeated scope", app.KeyCreate{Name: "x", Scopes: []string{"extract", "extract"}}, app.CodeInvalid, "scopes"},
		{"default scopes", app.KeyCreate{Name: "ci"}, "", ""},
		{"all scopes, any order", app.KeyCreate{Name: "ci", Scopes: []string{"monitor", "extract", "analyze"}}, "", ""},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, _ := e.MustAccount("")
		for _, c := range cases {
			k, err := e.Svc.CreateKey(e.Ctx(tok), c.in)
			wantCode(t, c.name, err, c.want)
			if c.field != "" {
				if f := app.AsError(err).Fields; len(f) != 1 || f[0].Field != c.field {
					t.Errorf("%s: fields %+v, want one naming %s", c.name, f, c.field)
				}
			}
			if err == nil && (!app.WellFormedKey(k.RawKey) || k.Key.Prefix != k.RawKey[:12] || len(k.Key.Scopes) < 2 || k.Key.Scopes[0] != "extract" || k.Key.Scopes[1] != "analyze") {
				t.Errorf("%s: created %+v, want a well-formed key with scopes in the contract's order", c.name, k)
			}
		}
		keys, err := e.Svc.FindKeys(e.Ctx(tok), false)
		if err != nil || len(keys) != 2 {
			t.Errorf("invalid requests created keys: %d listed, want 2 (%v)", len(keys), err)
		}
		// A key can never mint keys, whatever its scopes.
		all := e.MustKey(tok, "extract", "analyze", "monitor")
		_, err = e.Svc.CreateKey(e.Ctx(all.RawKey), app.KeyCreate{Name: "child"})
		wantCode(t, "a key creating a key", err, app.CodeForbidden)
		_, err = e.Svc.CreateKey(context.Background(), app.KeyCreate{Name: "anonymous"})
		wantCode(t, "no caller", err, app.CodeUnauthenticated)
	})
}

func TestRevokeKey(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		alice, _ := e.MustAccount("")
		bob, _ := e.MustAccount("")
		alices, bobs := e.MustKey(alice), e.MustKey(bob)
		for _, c := range []struct{ name, id string }{
			{"another account's key", bobs.Key.ID},
			{"unknown id", "6f1c1f8e-0000-4000-8000-000000000000"},
			{"not a uuid", "nope"},
			{"a NUL", "\x00"},
		} {
			_, err := e.Svc.RevokeKey(e.Ctx(alice), c.id)
			wantCode(t, c.name, err, app.CodeNotFound)
		}
		if _, err := e.Svc.Authenticate(context.Background(), bobs.RawKey); err != nil {
			t.Errorf("bob's key after alice's attempt: %v", err)
		}
		// A key may revoke a key of its own account, itself included.
		k, err := e.Svc.RevokeKey(e.Ctx(alices.RawKey), alices.Key.ID)
		if err != nil || k.RevokedAt == nil {
			t.Fatalf("revoke own key: %+v %v", k, err)
		}
		_, err = e.Svc.Authenticate(context.Background(), alices.RawKey)
		wantCode(t, "the revoked key", err, app.CodeUnauthenticated)
		for include, want := range map[bool]int{false: 0, true: 1} {
			if keys, err := e.Svc.FindKeys(e.Ctx(alice), include); err != nil || len(keys) != want {
				t.Errorf("keys with includeRevoked=%v: %d, want %d (%v)", include, len(keys), want, err)
			}
		}
	})
}

// Revocation is visible at once to another server process on the same database.
func TestRevokeVisibleToSecondProcess(t *testing.T) {
	a := apptest.New(t, dbtest.Open(t, dbtest.Postgres))
	b := apptest.New(t, dbtest.Open(t, dbtest.Postgres))
	tok, _ := a.MustAccount("")
	k := a.MustKey(tok)
	if _, err := b.Svc.Authenticate(context.Background(), k.RawKey); err != nil {
		t.Fatalf("second process before revoke: %v", err)
	}
	if _, err := a.Svc.RevokeKey(a.Ctx(tok), k.Key.ID); err != nil {
		t.Fatal(err)
	}
	_, err := b.Svc.Authenticate(context.Background(), k.RawKey)
	wantCode(t, "second process after revoke", err, app.CodeUnauthenticated)
}

// A key failing its checksum is refused without a database lookup.
func TestChecksumFailureNeverReachesDatabase(t *testing.T) {
	counting := &countingStore{Store: dbtest.Open(t, dbtest.SQLite)}
	e := apptest.New(t, counting)
	good := app.NewRawKey()
	flipped := "A"
	if good[52] == 'A' {
		flipped = "B"
	}
	_, err := e.Svc.Authenticate(context.Background(), good[:52]+flipped)
	wantCode(t, "bad checksum", err, app.CodeUnauthenticated)
	if n := counting.lookups.Load(); n != 0 {
		t.Fatalf("%d database lookups for a key failing its checksum", n)
	}
	_, err = e.Svc.Authenticate(context.Background(), good)
	wantCode(t, "well-formed unknown key", err, app.CodeUnauthenticated)
	if n := counting.lookups.Load(); n != 1 {
		t.Fatalf("%d lookups for a well-formed key, want 1", n)
	}
}

type countingStore struct {
	apptest.Store
	lookups atomic.Int32
}

func (c *countingStore) FindActiveKeyByHash(ctx context.Context, h []byte) (*app.Key, *app.Account, error) {
	c.lookups.Add(1)
	return c.Store.FindActiveKeyByHash(ctx, h)
}

// Active keys per account are capped by plan (Free 3, Base 10, Advanced 50);
// one more is 403 with keyLimit and creates nothing, a revoked key frees its
// place, and a downgrade keeps the keys over the new cap working.
func TestKeyLimit(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		for tier, limit := range map[app.Tier]int{app.TierFree: 3, app.TierBase: 10, app.TierAdvanced: 50} {
			tok, acct := e.MustAccount("")
			e.SetTier(acct.ID, tier)
			var first *app.CreatedKey
			for i := range limit {
				k := e.MustKey(tok)
				if i == 0 {
					first = k
				}
			}
			_, err := e.Svc.CreateKey(e.Ctx(tok), app.KeyCreate{Name: "one too many"})
			wantCode(t, string(tier)+": one over the cap", err, app.CodeForbidden)
			wantData(t, string(tier)+": one over the cap", err, map[string]any{"keyLimit": limit})
			if keys, err := e.Svc.FindKeys(e.Ctx(tok), true); err != nil || len(keys) != limit {
				t.Errorf("%s: %d keys after the refusal, want %d (%v)", tier, len(keys), limit, err)
			}
			if _, err := e.Svc.RevokeKey(e.Ctx(tok), first.Key.ID); err != nil {
				t.Fatal(err)
			}
			e.MustKey(tok) // the revoked key's place
		}

		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierBase)
		keys := make([]*app.CreatedKey, 5)
		for i := range keys {
			keys[i] = e.MustKey(tok)
		}
		e.SetTier(acct.ID, app.TierFree)
		for _, k := range keys {
			if _, err := e.Svc.Authenticate(context.Background(), k.RawKey); err != nil {
				t.Errorf("a key kept over the cap after a downgrade: %v", err)
			}
		}
		_, err := e.Svc.CreateKey(e.Ctx(tok), app.KeyCreate{Name: "after downgrade"})
		wantData(t, "after a downgrade", err, map[string]any{"keyLimit": 3})
	})
}

// Concurrent creations, in two processes on one database, never pass the cap.
func TestKeyLimitConcurrent(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		a := apptest.New(t, dbtest.Open(t, d))
		b := a
		if d == dbtest.Postgres {
			b = apptest.New(t, dbtest.Open(t, d))
		}
		tok, _ := a.MustAccount("")
		var created atomic.Int32
		var wg sync.WaitGroup
		for i := range 12 {
			e := []*apptest.Env{a, b}[i%2]
			ctx := e.Ctx(tok)
			wg.Go(func() {
				_, err := e.Svc.CreateKey(ctx, app.KeyCreate{Name: "race"})
				switch codeOf(err) {
				case "":
					created.Add(1)
				case app.CodeForbidden:
				default:
					t.Errorf("CreateKey: %v", err)
				}
			})
		}
		wg.Wait()
		if n := created.Load(); n != 3 {
			t.Errorf("%d keys created by 12 concurrent calls on a free account, want 3", n)
		}
	})
}
