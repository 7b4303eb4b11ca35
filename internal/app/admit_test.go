package app_test

import (
	"context"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// Admit, the one call of a route's admission: the caller found, the
// route's scope checked and its scans taken with the key, or refused; the
// operation takes the scans over, and Settle gives back those it did not.
func TestAdmit(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		analyze := app.Ask{Op: app.OpAnalyze, Scans: 1}
		admit := func(bearer string, ask app.Ask) (*app.Admission, context.Context, error) {
			a, err := e.Svc.Admit(context.Background(), bearer, ask)
			if a == nil {
				return nil, nil, err
			}
			return a, app.WithAdmission(context.Background(), a), err
		}

		t.Run("the operation takes the scan charged with the key", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok)
			a, ctx, err := admit(k.RawKey, analyze)
			if err != nil || a.Principal.Key.ID != k.Key.ID {
				t.Fatalf("admit: %v %v", a, err)
			}
			if got := e.ScansUsed(k.Key.ID); got != 1 {
				t.Errorf("after admission %d scans used, want 1", got)
			}
			if _, err := e.Svc.Analyze(ctx, shortText); err != nil {
				t.Fatal(err)
			}
			e.Svc.Settle(ctx, a)
			if got := e.ScansUsed(k.Key.ID); got != 1 {
				t.Errorf("after the analysis %d scans used, want 1 (taken over, not charged twice)", got)
			}
		})

		t.Run("an operation that never charged gets its scan back", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok)
			a, ctx, err := admit(k.RawKey, analyze)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Svc.Analyze(ctx, app.AnalyzeInput{}); app.ErrorCode(err) != app.CodeInvalid {
				t.Fatalf("empty input: %v, want invalid", err)
			}
			e.Svc.Settle(ctx, a)
			e.Svc.Settle(ctx, a) // once only
			if got := e.ScansUsed(k.Key.ID); got != 0 {
				t.Errorf("%d scans used, want 0", got)
			}
		})

		t.Run("a key without the scope is refused, known, charged nothing", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok, "extract")
			a, _, err := admit(k.RawKey, analyze)
			if app.ErrorCode(err) != app.CodeForbidden || a == nil || a.Principal.Key.ID != k.Key.ID {
				t.Fatalf("got %v %v, want forbidden with the caller", a, err)
			}
			if got := e.ScansUsed(k.Key.ID); got != 0 {
				t.Errorf("%d scans used, want 0", got)
			}
		})

		t.Run("a spent key is refused with its 429", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok)
			for range 5 {
				if _, err := e.Svc.Analyze(e.Ctx(k.RawKey), shortText); err != nil {
					t.Fatal(err)
				}
			}
			var rl app.RateLimit
			ctx := app.WithRateLimitObserver(context.Background(), func(r app.RateLimit) { rl = r })
			a, err := e.Svc.Admit(ctx, k.RawKey, analyze)
			if app.ErrorCode(err) != app.CodeRateLimited || a == nil {
				t.Fatalf("got %v %v, want rate_limited with the caller", a, err)
			}
			if rl.Limit != 5 || rl.Remaining != 0 {
				t.Errorf("rate limit %+v, want 5 and 0 left", rl)
			}
			if got := e.ScansUsed(k.Key.ID); got != 5 {
				t.Errorf("%d scans used, want 5", got)
			}
		})

		t.Run("the key list read with the key", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok)
			if _, err := e.Svc.RevokeKey(e.Ctx(tok), e.MustKey(tok).Key.ID); err != nil {
				t.Fatal(err)
			}
			a, ctx, err := admit(k.RawKey, app.Ask{KeyList: true})
			if err != nil {
				t.Fatal(err)
			}
			active, err := e.Svc.FindKeys(ctx, false)
			if err != nil {
				t.Fatal(err)
			}
			all, err := e.Svc.FindKeys(ctx, true) // not what was read: asked of the store
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != len(active)+1 {
				t.Errorf("%d keys with the revoked one, %d without; want one more", len(all), len(active))
			}
			e.Svc.Settle(ctx, a) // nothing charged: nothing to give back
		})

		t.Run("credentials that name no caller", func(t *testing.T) {
			for _, bearer := range []string{"", "cwsk_short", "cwsk_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "not-a-token"} {
				if a, err := e.Svc.Admit(context.Background(), bearer, analyze); a != nil || app.ErrorCode(err) != app.CodeUnauthenticated {
					t.Errorf("%q: %v %v, want unauthenticated and no admission", bearer, a, err)
				}
			}
		})

		t.Run("an account session is admitted; its operation charges", func(t *testing.T) {
			tok, _ := e.MustAccount("")
			a, ctx, err := admit(tok, analyze)
			if err != nil || a.Principal.Key != nil {
				t.Fatalf("session: %v %v", a, err)
			}
			if _, err := e.Svc.Analyze(ctx, shortText); err != nil {
				t.Fatal(err)
			}
			e.Svc.Settle(ctx, a)
			if got := e.ScansUsed(a.Principal.Account.ID); got != 1 {
				t.Errorf("%d scans used by the account, want 1", got)
			}
		})
	})
}

// Authorize is the caller holding an operation's scope; an account
// operation ("") any credential may use.
func TestAuthorize(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok, "extract")
	if _, err := app.Authorize(context.Background(), app.OpAnalyze); app.ErrorCode(err) != app.CodeUnauthenticated {
		t.Errorf("no caller: %v", err)
	}
	if _, err := app.Authorize(e.Ctx(k.RawKey), app.OpAnalyze); app.ErrorCode(err) != app.CodeForbidden {
		t.Errorf("no scope: %v", err)
	}
	if p, err := app.Authorize(e.Ctx(k.RawKey), ""); err != nil || p.Key.ID != k.Key.ID {
		t.Errorf("account operation: %v %v", p, err)
	}
	if p, err := app.Authorize(e.Ctx(tok), app.OpAnalyze); err != nil || p.Key != nil {
		t.Errorf("session: %v %v", p, err)
	}
}
