package monitor_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	extractor "github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// timedStore adds up the time the scheduler spends in the store.
type timedStore struct {
	apptest.Store
	sql, claim, finished atomic.Int64
}

func (s *timedStore) since(t time.Time) { s.sql.Add(int64(time.Since(t))) }

func (s *timedStore) ClaimDueMonitor(ctx context.Context, now, until time.Time, owner string) (*monitor.Monitor, error) {
	defer s.since(time.Now())
	defer func(t time.Time) { s.claim.Add(int64(time.Since(t))) }(time.Now())
	return s.Store.ClaimDueMonitor(ctx, now, until, owner)
}

func (s *timedStore) NextCheckAt(ctx context.Context, now time.Time) (time.Time, error) {
	defer s.since(time.Now())
	return s.Store.NextCheckAt(ctx, now)
}

func (s *timedStore) FindVersion(ctx context.Context, monitorID, hash string) (*monitor.MonitorVersion, error) {
	defer s.since(time.Now())
	return s.Store.FindVersion(ctx, monitorID, hash)
}

func (s *timedStore) FinishCheck(ctx context.Context, c *monitor.CheckRecord) (bool, error) {
	defer s.since(time.Now())
	defer s.finished.Add(1)
	return s.Store.FinishCheck(ctx, c)
}

// BenchmarkMonitorChecks runs one process's scheduler over 1,000 monitors
// that are always due (1s interval), against a loopback site serving a real
// terms page (shared/data/extract/010.html, 38 KB), on PostgreSQL. It reports checks a minute and the share
// of the workers' time spent in SQL (claim, next-due, record).
func BenchmarkMonitorChecks(b *testing.B) {
	body, err := os.ReadFile("../../../shared/data/extract/010.html")
	if err != nil {
		b.Skip("needs ../shared/data/extract:", err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	}))
	defer site.Close()
	ctx := context.Background()
	pg := dbtest.Open(b, dbtest.Postgres)
	store := &timedStore{Store: pg}
	_, x := apptest.Engines(b)
	doc, err := x.Extract(body, "text/html", site.URL)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now().UTC()
	acct := &app.Account{ID: uuid.NewString(), Subject: "bench|" + uuid.NewString(), Tier: app.TierAdvanced, CreatedAt: now, UpdatedAt: now}
	if err := pg.CreateAccount(ctx, acct); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		m := &monitor.Monitor{ID: uuid.NewString(), AccountID: acct.ID, URL: fmt.Sprintf("%s/terms/%d", site.URL, i), IntervalSeconds: 1,
			CreatedAt: now, NextCheckAt: now, ContentHash: doc.ContentHash}
		v := &monitor.MonitorVersion{MonitorID: m.ID, ContentHash: doc.ContentHash, ExtractorVersion: extractor.Version, Text: doc.Text,
			WordCount: doc.WordCount, FirstSeenAt: now, LastSeenAt: now}
		if _, err := pg.CreateMonitor(ctx, m, v, &monitor.RawPage{Body: body, ContentType: "text/html", URL: m.URL}, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
	const workers = 4 // the default of CLAUSEWATCH_MONITOR_WORKERS
	// The service's Run starts the scheduler, as serve does.
	e := apptest.New(b, store, apptest.Configure(func(o *app.Options) {
		o.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{site.Listener.Addr().String()}})
	}), apptest.Monitoring(func(o *monitor.Options) {
		o.Workers, o.MinInterval, o.HostInterval = workers, time.Second, -1
	}))

	b.ResetTimer()
	for store.finished.Load() < int64(b.N) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := e.Stop(); err != nil {
		b.Error(err)
	}
	b.StopTimer()
	n := store.finished.Load()
	b.ReportMetric(float64(n)/b.Elapsed().Minutes(), "checks/min")
	b.ReportMetric(100*float64(store.sql.Load())/float64(workers*b.Elapsed()), "sql-%")
	b.ReportMetric(100*float64(store.claim.Load())/float64(workers*b.Elapsed()), "claim-%")
	// Leave the package's database as we found it for later benchmarks.
	for _, m := range mustList(b, pg, acct.ID) {
		_ = pg.DeleteMonitor(ctx, acct.ID, m.ID, time.Now())
	}
}

func mustList(b *testing.B, s *db.Store, accountID string) []monitor.Monitor {
	ms, err := s.FindMonitors(context.Background(), accountID)
	if err != nil {
		b.Fatal(err)
	}
	return ms
}
