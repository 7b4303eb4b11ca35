package db_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// Migrations run from empty (dbtest.Open) and a second run is a no-op.
func TestMigrationsFromEmptyAndIdempotent(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			if err := s.Migrate(context.Background()); err != nil {
				t.Fatalf("second migrate: %v", err)
			}
			if err := s.Ping(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The store translates at its boundary: no rows is not_found, a unique
// violation conflict; it never returns nil, nil.
func TestErrorTranslation(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			a, err := s.FindAccount(ctx, "6f1c1f8e-0000-4000-8000-000000000000")
			if app.ErrorCode(err) != app.CodeNotFound || a != nil {
				t.Errorf("missing account: %v %v", a, err)
			}
			if a, err := s.FindAccountByCustomer(ctx, "cus_missing"); app.ErrorCode(err) != app.CodeNotFound || a != nil {
				t.Errorf("missing customer: %v %v", a, err)
			}
			acct := &app.Account{ID: "6f1c1f8e-0000-4000-8000-0000000000aa", Subject: "s|" + string(d), Tier: app.TierFree}
			if err := s.CreateAccount(ctx, acct); err != nil {
				t.Fatal(err)
			}
			dup := *acct
			dup.ID = "6f1c1f8e-0000-4000-8000-0000000000bb"
			if err := s.CreateAccount(ctx, &dup); app.ErrorCode(err) != app.CodeConflict {
				t.Errorf("duplicate subject: %v", err)
			}
			if err := s.RecordPaymentEvent(ctx, "evt_1", "x", false, acct.CreatedAt); err != nil {
				t.Fatal(err)
			}
			if err := s.RecordPaymentEvent(ctx, "evt_1", "x", false, acct.CreatedAt); app.ErrorCode(err) != app.CodeConflict {
				t.Errorf("duplicate event: %v", err)
			}
		})
	}
}

// With no monitor to check, NextCheckAt is not_found, never a nil time.
// Only SQLite's store is fresh: PostgreSQL's holds the package's other
// monitors.
func TestNextCheckAtWithoutMonitorsIsNotFound(t *testing.T) {
	s := dbtest.Open(t, dbtest.SQLite)
	if _, err := s.NextCheckAt(context.Background(), time.Now()); app.ErrorCode(err) != app.CodeNotFound {
		t.Errorf("no monitors: %v, want not_found", err)
	}
}

// ConsumeBudget never lets a pool pass its limit; refunds never go below zero.
func TestBudgetArithmetic(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			owner := "owner-" + string(d)
			steps := []struct {
				n, limit, wantUsed int
				wantOK             bool
			}{
				{3, 5, 3, true}, {3, 5, 0, false}, {2, 5, 5, true}, {1, 5, 0, false}, {1, -1, 6, true}, {6, 5, 0, false},
			}
			for i, st := range steps {
				used, ok, err := s.ConsumeBudget(ctx, owner, "scan", "2026-11-22", st.n, st.limit)
				if err != nil || ok != st.wantOK || (ok && used != st.wantUsed) {
					t.Errorf("step %d: used %d ok %v err %v", i, used, ok, err)
				}
			}
			if err := s.RefundBudget(ctx, owner, "scan", "2026-11-22", 100); err != nil {
				t.Fatal(err)
			}
			got, err := s.BudgetUsed(ctx, []string{owner, "nobody"}, "scan", "2026-11-22")
			if err != nil || got[owner] != 0 || got["nobody"] != 0 {
				t.Errorf("after refund: %v %v", got, err)
			}
		})
	}
}
