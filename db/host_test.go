package db_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/db/dbtest"
)

// Of many processes taking one host's turn at the same moment, exactly one
// gets it; the turn after it comes a floor (or the host's longer delay)
// later, and a recorded Retry-After only ever moves it later.
func TestHostTurn(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			host := "h-" + uuid.NewString() + ":443"
			const now, floor = int64(1_000_000), int64(1000)
			var taken atomic.Int64
			var wg sync.WaitGroup
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, ok, err := s.TakeHostTurn(ctx, host, now, floor)
					if err != nil {
						t.Error(err)
					}
					if ok {
						taken.Add(1)
					}
				}()
			}
			wg.Wait()
			if n := taken.Load(); n != 1 {
				t.Fatalf("%d processes took one turn", n)
			}
			if turn, ok, err := s.TakeHostTurn(ctx, host, now+floor-1, floor); ok || err != nil || turn.NextMs != now+floor {
				t.Errorf("a millisecond early: %+v %v %v, want the turn at %d", turn, ok, err, now+floor)
			}
			if _, ok, err := s.TakeHostTurn(ctx, host, now+floor, floor); !ok || err != nil {
				t.Fatalf("on time: %v %v", ok, err)
			}
			// A slow host's delay, three failures and a Retry-After.
			if err := s.RecordHostFetch(ctx, host, 5000, 3, now+60_000); err != nil {
				t.Fatal(err)
			}
			if err := s.RecordHostFetch(ctx, host, 5000, 3, now+2000); err != nil { // never earlier
				t.Fatal(err)
			}
			if turn, ok, _ := s.TakeHostTurn(ctx, host, now+59_999, floor); ok || turn.NextMs != now+60_000 {
				t.Errorf("during Retry-After: %+v %v", turn, ok)
			}
			turn, ok, err := s.TakeHostTurn(ctx, host, now+60_000, floor)
			if !ok || err != nil || turn.Errors != 3 {
				t.Fatalf("after Retry-After: %+v %v %v", turn, ok, err)
			}
			if turn, _, _ := s.TakeHostTurn(ctx, host, now+60_000+floor, floor); turn.NextMs != now+65_000 {
				t.Errorf("the host's 5s delay was not kept: next at %d", turn.NextMs)
			}
			if n, err := s.PruneHosts(ctx, now+65_001); err != nil || n < 1 {
				t.Errorf("prune: %d %v", n, err)
			}
		})
	}
}
