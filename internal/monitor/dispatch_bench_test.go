package monitor_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// recordCounter counts the checks recorded.
type recordCounter struct {
	apptest.Store
	finished      atomic.Int64
	claim, record atomic.Int64 // time spent in each, over every worker
}

func (s *recordCounter) ClaimDueMonitor(ctx context.Context, now, until time.Time, owner string) (*monitor.Monitor, error) {
	defer func(t time.Time) { s.claim.Add(int64(time.Since(t))) }(time.Now())
	return s.Store.ClaimDueMonitor(ctx, now, until, owner)
}

func (s *recordCounter) FinishCheck(ctx context.Context, c *monitor.CheckRecord) (bool, error) {
	defer func(t time.Time) { s.record.Add(int64(time.Since(t))) }(time.Now())
	ok, err := s.Store.FinishCheck(ctx, c)
	if ok {
		s.finished.Add(1)
	}
	return ok, err
}

// Dispatch benchmark sizes: dispatchMonitors due monitors of
// dispatchAccounts accounts, dispatchWorkers workers in one process.
const (
	dispatchMonitors = 20_000
	dispatchAccounts = 100
	dispatchWorkers  = 16
)

// BenchmarkDispatch measures the scheduler's dispatch alone on one
// PostgreSQL: 20,000 monitors of 100 accounts, all due, an hour's
// interval, and 16 workers (RunMonitors) whose check reads no page (a 304
// at once): each check is the fair claim, the no-op check and the record.
// One iteration dispatches all 20,000; the table is made due again between
// iterations. Beside it, in the same run and on the same table, the floor:
// 16 goroutines looping over a bare `UPDATE ... WHERE id = (SELECT ...
// FOR UPDATE SKIP LOCKED LIMIT 1)` that takes the earliest due monitor and
// moves it an hour on. Both report monitors/s.
//
//	./scripts/with-postgres.sh go test -run '^$' -bench BenchmarkDispatch -benchtime 3x ./internal/monitor/
func BenchmarkDispatch(b *testing.B) {
	ctx := context.Background()
	url := dbtest.PostgresURL(b)
	store := dbtest.Open(b, dbtest.Postgres)
	x, err := sqlx.Open("postgres", url)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	x.SetMaxOpenConns(dispatchWorkers)
	// Leases from earlier benchmarks' monitors would stand in the way.
	if _, err := x.ExecContext(ctx, `UPDATE monitors SET deleted_at = now() WHERE deleted_at IS NULL`); err != nil {
		b.Fatal(err)
	}
	run := uuid.NewString()[:8]
	if _, err := x.ExecContext(ctx, `INSERT INTO accounts (id, subject, created_at, updated_at)
SELECT gen_random_uuid(), 'dispatch|' || $1 || '|' || i, now(), now() FROM generate_series(1, $2) i`, run, dispatchAccounts); err != nil {
		b.Fatal(err)
	}
	if _, err := x.ExecContext(ctx, `INSERT INTO monitors (id, account_id, url, interval_seconds, created_at, next_check_at, content_hash, content_seen_at, raw_gz, whole_fetch_at)
SELECT gen_random_uuid(), a.id, 'https://example.com/' || i, 3600, now(), now() - interval '1 hour', 'h', now(), ''::bytea, now()
FROM generate_series(1, $2) i JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts WHERE subject LIKE 'dispatch|' || $1 || '|%') a
  ON a.n = i % $3`, run, dispatchMonitors, dispatchAccounts); err != nil {
		b.Fatal(err)
	}
	defer x.ExecContext(ctx, `UPDATE monitors SET deleted_at = now() WHERE deleted_at IS NULL`)
	if _, err := x.ExecContext(ctx, `ANALYZE monitors`); err != nil {
		b.Fatal(err)
	}
	// due makes every monitor due again, spread over the last minute.
	due := func() {
		if _, err := x.ExecContext(ctx, `UPDATE monitors SET next_check_at = now() - random() * interval '1 minute', lease_owner = NULL, lease_until = NULL WHERE deleted_at IS NULL`); err != nil {
			b.Fatal(err)
		}
		if _, err := x.ExecContext(ctx, `VACUUM ANALYZE monitors`); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("scheduler", func(b *testing.B) {
		counted := &recordCounter{Store: store}
		svc := monitor.New(monitor.Options{App: app.New(app.Options{Store: counted, Logger: slog.New(slog.DiscardHandler)}),
			Store: counted, Workers: dispatchWorkers, MinInterval: time.Second, HostInterval: -1})
		svc.DispatchOnly()
		var elapsed time.Duration
		for range b.N {
			b.StopTimer()
			due()
			counted.finished.Store(0)
			counted.claim.Store(0)
			counted.record.Store(0)
			b.StartTimer()
			start := time.Now()
			ctx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); _ = svc.RunMonitors(ctx) }()
			for counted.finished.Load() < dispatchMonitors {
				time.Sleep(time.Millisecond)
			}
			elapsed += time.Since(start)
			cancel()
			<-done
		}
		b.ReportMetric(float64(b.N*dispatchMonitors)/elapsed.Seconds(), "monitors/s")
		n := float64(b.N * dispatchMonitors)
		b.ReportMetric(float64(counted.claim.Load())/n/1e6, "claim-ms")
		b.ReportMetric(float64(counted.record.Load())/n/1e6, "record-ms")
	})

	b.Run("bare-skip-locked", func(b *testing.B) {
		const bare = `UPDATE monitors SET next_check_at = $1::timestamptz + interval '1 hour'
WHERE id = (SELECT id FROM monitors WHERE deleted_at IS NULL AND next_check_at <= $1
  ORDER BY next_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)`
		var elapsed time.Duration
		for range b.N {
			b.StopTimer()
			due()
			b.StartTimer()
			start := time.Now()
			var n atomic.Int64
			var wg sync.WaitGroup
			for range dispatchWorkers {
				wg.Go(func() {
					for {
						res, err := x.ExecContext(ctx, bare, time.Now().UTC())
						if err != nil {
							b.Error(err)
							return
						}
						if k, _ := res.RowsAffected(); k == 0 {
							return
						}
						n.Add(1)
					}
				})
			}
			wg.Wait()
			elapsed += time.Since(start)
			if n.Load() != dispatchMonitors {
				b.Fatalf("bare loop moved %d monitors, want %d", n.Load(), dispatchMonitors)
			}
		}
		b.ReportMetric(float64(b.N*dispatchMonitors)/elapsed.Seconds(), "monitors/s")
	})
}
