package db_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// Several processes flush usage for the same keys at once: each flush locks
// the keys' rows (and the accounts' day rows) in one order, so concurrent
// flushes queue instead of deadlocking (40P01), and every count arrives.
func TestConcurrentUsageFlushes(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			setup := dbtest.Open(t, d)
			const nAccounts, keysPer, flushers, rounds = 3, 4, 4, 25
			now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
			var keys []app.Key
			for a := range nAccounts {
				acct := &app.Account{ID: uuid.NewString(), Subject: fmt.Sprintf("flush|%s|%d", d, a), Tier: app.TierFree, CreatedAt: now, UpdatedAt: now}
				if err := setup.CreateAccount(ctx, acct); err != nil {
					t.Fatal(err)
				}
				for range keysPer {
					key := app.Key{ID: uuid.NewString(), AccountID: acct.ID, Name: "k",
						Prefix: "cwsk_flush00", Hash: []byte(uuid.NewString()), Scopes: app.Scopes{"analyze"}, CreatedAt: now}
					if _, err := setup.CreateKey(ctx, &key, keysPer); err != nil {
						t.Fatal(err)
					}
					keys = append(keys, key)
				}
			}
			// On PostgreSQL each flusher has its own pool, as each process
			// does; SQLite's one connection serializes them anyway.
			stores := []app.Store{setup}
			for len(stores) < flushers {
				s := setup
				if d == dbtest.Postgres {
					s = dbtest.Open(t, d)
				}
				stores = append(stores, s)
			}
			var wg sync.WaitGroup
			errs := make(chan error, flushers*rounds)
			for f := range flushers {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(f), 1))
					for range rounds {
						var b app.UsageBatch
						for _, i := range r.Perm(len(keys)) {
							b.Keys = append(b.Keys, app.KeyUse{KeyID: keys[i].ID, Count: 1, LastUsedAt: now})
						}
						for _, a := range r.Perm(nAccounts) {
							b.Days = append(b.Days, app.DayCount{AccountID: keys[a*keysPer].AccountID, Day: "2026-11-22", Total: 1})
						}
						if err := stores[f].SaveUsage(ctx, b); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("flush: %v", err)
			}
			for a := range nAccounts {
				acct := keys[a*keysPer].AccountID
				got, err := setup.FindKeys(ctx, app.KeyFilter{AccountID: acct})
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range got {
					if k.RequestCount != flushers*rounds {
						t.Errorf("key %s: requestCount %d, want %d", k.ID, k.RequestCount, flushers*rounds)
					}
				}
				days, err := setup.FindDayCounts(ctx, acct, "2026-11-22")
				if err != nil || len(days) != 1 || days[0].Total != flushers*rounds {
					t.Errorf("account %s: days %+v, want total %d (%v)", acct, days, flushers*rounds, err)
				}
			}
		})
	}
}
