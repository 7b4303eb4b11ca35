package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// SetPlan (`clausewatch account plan`): every account of the address gets
// the plan, the address's local account made when there is none; a bad
// address or plan is invalid, naming its field.
func TestSetPlan(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		ctx := context.Background()
		for _, c := range []struct {
			email string
			tier  app.Tier
			field string
		}{{"", app.TierBase, "email"}, {"no-at-sign", app.TierBase, "email"}, {"a@example.com", "gold", "plan"}} {
			_, err := e.Svc.SetPlan(ctx, c.email, c.tier)
			if ae := app.AsError(err); ae.Code != app.CodeInvalid || len(ae.Fields) != 1 || ae.Fields[0].Field != c.field {
				t.Errorf("SetPlan(%q, %q): %v, want invalid naming %s", c.email, c.tier, err, c.field)
			}
		}
		made, err := e.Svc.SetPlan(ctx, " new@example.com ", app.TierAdvanced)
		if err != nil || len(made) != 1 || made[0].Tier != app.TierAdvanced || e.Account(made[0].ID).Tier != app.TierAdvanced {
			t.Fatalf("a new address: %+v %v", made, err)
		}
		again, err := e.Svc.SetPlan(ctx, "new@example.com", app.TierBase)
		if err != nil || len(again) != 1 || again[0].ID != made[0].ID || e.Account(made[0].ID).Tier != app.TierBase {
			t.Errorf("the same address again: %+v %v", again, err)
		}
	})
}

// Catch turns a panic into an internal error carrying it, for the caller
// to log once; an error or nil passes through.
func TestCatch(t *testing.T) {
	if err := app.Catch(func() error { panic("boom") }); app.ErrorCode(err) != app.CodeInternal || !strings.Contains(app.AsError(err).Err.Error(), "boom") {
		t.Errorf("panic: %v", err)
	}
	plain := errors.New("plain")
	if err := app.Catch(func() error { return plain }); !errors.Is(err, plain) {
		t.Errorf("error: %v", err)
	}
	if err := app.Catch(func() error { return nil }); err != nil {
		t.Errorf("nil: %v", err)
	}
}

// An echoed value is cut to MaxEchoed characters; AnalysisParts cover
// what they read.
func TestEchoAndParts(t *testing.T) {
	if got := app.Echo(strings.Repeat("é", 100)); len([]rune(got)) > app.MaxEchoed+1 {
		t.Errorf("Echo kept %d characters", len([]rune(got)))
	}
	if got := app.Echo("short"); got != "short" {
		t.Errorf("Echo(short) = %q", got)
	}
	if !app.AllParts.Covers(app.AnalysisParts{Body: true}) || (app.AnalysisParts{}).Covers(app.AnalysisParts{Text: true}) {
		t.Error("Covers")
	}
}

// SetPlan refuses what is not one bare address and makes no account of it;
// a real address it makes the account of.
func TestSetPlanNeedsAnEmail(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	ctx := context.Background()
	for _, bad := range []string{"", "@", "a@", "@b", "ops", "Ops <ops@example.com>", "a@b.c, d@e.f"} {
		if _, err := e.Svc.SetPlan(ctx, bad, app.TierBase); app.ErrorCode(err) != app.CodeInvalid {
			t.Errorf("SetPlan(%q): %v, want invalid", bad, err)
		}
		if accts, err := e.Store.FindAccountsByEmail(ctx, bad); err != nil || len(accts) != 0 {
			t.Errorf("SetPlan(%q) made %d accounts (%v)", bad, len(accts), err)
		}
	}
	if accts, err := e.Svc.SetPlan(ctx, "ops@example.com", app.TierBase); err != nil || len(accts) != 1 || accts[0].Tier != app.TierBase {
		t.Errorf("SetPlan(ops@example.com): %+v %v", accts, err)
	}
}
