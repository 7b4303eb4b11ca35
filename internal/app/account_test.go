package app_test

import (
	"context"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/app/apptest"
)

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
