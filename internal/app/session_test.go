package app_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/session"
)

// A sign-out on one replica ends that session on every replica from the next
// request on; the account's other sessions and its keys go on. The
// revocation is kept while the token could still be accepted, then pruned.
func TestSignOutRevokesTheSessionOnEveryReplica(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		ctx := context.Background()
		store := dbtest.Open(t, d)
		other := apptest.Store(store)
		if d == dbtest.Postgres {
			other = dbtest.Open(t, d) // a pool of its own, as another process has
		}
		a := apptest.New(t, store)
		b := apptest.New(t, other)
		token, acct := a.MustAccount("")
		key := a.MustKey(token)
		second, err := session.MintHS256(apptest.SessionSecret, acct.Subject, acct.Email, "", "", 2*time.Hour)
		if err != nil {
			t.Fatal(err)
		}

		if err := a.Svc.SignOut(ctx, token); err != nil {
			t.Fatalf("SignOut: %v", err)
		}
		for name, svc := range map[string]*app.Service{"this replica": a.Svc, "another replica": b.Svc} {
			if _, err := svc.Authenticate(ctx, token); app.ErrorCode(err) != app.CodeUnauthenticated {
				t.Errorf("%s: signed-out token: %v, want unauthenticated", name, err)
			}
			for what, cred := range map[string]string{"the account's other session": second, "the account's key": key.RawKey} {
				if p, err := svc.Authenticate(ctx, cred); err != nil || p.Account.ID != acct.ID {
					t.Errorf("%s: %s: %v, want it to go on", name, what, err)
				}
			}
		}
		// Signing out again, or with a token that is no session, changes nothing.
		for _, tok := range []string{token, "not.a.token", key.RawKey, ""} {
			if err := b.Svc.SignOut(ctx, tok); err != nil {
				t.Errorf("SignOut(%q): %v, want nil", tok, err)
			}
		}
		if _, err := b.Svc.Authenticate(ctx, key.RawKey); err != nil {
			t.Errorf("the key after SignOut(key): %v, want it to go on", err)
		}

		// Before the token expires the revocation stays; after, it goes.
		a.Clock.Set(time.Now().Add(50 * time.Minute))
		if n, err := a.Svc.PruneSessions(ctx); err != nil || n != 0 {
			t.Errorf("prune before expiry: %d, %v; want nothing pruned", n, err)
		}
		if _, err := b.Svc.Authenticate(ctx, token); app.ErrorCode(err) != app.CodeUnauthenticated {
			t.Errorf("signed-out token after a prune: %v, want unauthenticated", err)
		}
		a.Clock.Set(time.Now().Add(2 * time.Hour))
		if n, err := a.Svc.PruneSessions(ctx); err != nil || n < 1 {
			t.Errorf("prune after expiry: %d, %v; want the revocation pruned", n, err)
		}
	})
}

// A sign-out recorded before sessions were keyed by their claims (the whole
// token's hash) still ends the session.
func TestSignOutRecordedByTheTokensHash(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		store := dbtest.Open(t, d)
		a := apptest.New(t, store)
		token, _ := a.MustAccount("")
		h := sha256.Sum256([]byte(token))
		if err := store.RevokeSession(t.Context(), h[:], time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Svc.Authenticate(t.Context(), token); app.ErrorCode(err) != app.CodeUnauthenticated {
			t.Errorf("token revoked by its hash: %v, want unauthenticated", err)
		}
	})
}
