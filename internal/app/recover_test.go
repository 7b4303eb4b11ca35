package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/app/apptest"
	extractor "github.com/clausewatch/clausewatch/internal/extract"
)

// logBuffer is a logger's output, safe for the service's goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// panics counts the log records that carry a panic's stack.
func (b *logBuffer) panics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), "panic: ")
}

func logTo(b *logBuffer) func(*app.Options) {
	return func(o *app.Options) { o.Logger = slog.New(slog.NewJSONHandler(b, nil)) }
}

// hookedRules is the service's extractor with hook called first on every
// page it reads.
type hookedRules struct {
	*extractor.Extractor
	hook func(raw []byte)
}

func (x hookedRules) Extract(raw []byte, ct, u string) (*extractor.Document, error) {
	x.hook(raw)
	return x.Extractor.Extract(raw, ct, u)
}

func extractHook(t *testing.T, hook func(raw []byte)) func(*app.Options) {
	return func(o *app.Options) {
		_, current := apptest.Engines(t)
		o.Extractor = hookedRules{current, hook}
	}
}

// panicOn makes the monitor's extractor panic on a page holding word.
func panicOn(t *testing.T, word string) func(*app.Options) {
	return extractHook(t, func(raw []byte) {
		if bytes.Contains(raw, []byte(word)) {
			panic("extractor bug on " + word)
		}
	})
}

// A check that panics is the monitor's failure like any other: counted,
// backed off, with a plain lastError, logged once with its stack; the
// check-now gives its scan back and the process lives on.
func TestMonitorCheckPanicIsAFailure(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &logBuffer{}
		e := newMonitorEnv(t, dbtest.Open(t, d), logTo(logs), panicOn(t, "BOOM"))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		before := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, "<p>BOOM</p>"), ""))
		got := e.mustCheck(t, ctx, m.ID)
		if got.Status() != app.MonitorFailing || got.ConsecutiveFailures != 1 || got.NextCheckAt.Sub(*got.LastCheckedAt) != 30*time.Second ||
			got.LastError == "" || strings.Contains(got.LastError, "BOOM") || strings.Contains(got.LastError, "goroutine") {
			t.Errorf("after a panicking check: %+v", got)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("the panicking check took %d scans", used-before)
		}
		if n := logs.panics(); n != 1 {
			t.Errorf("the panic was logged %d times", n)
		}
	})
}

// The scheduler's checks recover the same way: the monitor records the
// failure and the process (this test) survives.
func TestSchedulerSurvivesAPanickingCheck(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d), func(o *app.Options) { o.Monitor.Workers = 4 }, panicOn(t, "BOOM"))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m, err := e.Svc.CreateMonitor(ctx, app.MonitorCreate{URL: e.Docs.URL("/s"), IntervalSeconds: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false, "<p>BOOM</p>"), ""))
		got := m
		for deadline := time.Now().Add(10 * time.Second); got.ConsecutiveFailures == 0 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			if got, err = e.Svc.FindMonitor(ctx, m.ID); err != nil {
				t.Fatal(err)
			}
		}
		// Backoff is 30s doubling, capped at the 1s interval, so the checks
		// go on failing.
		if got.ConsecutiveFailures < 1 || got.Status() != app.MonitorFailing || got.NextCheckAt.Sub(*got.LastCheckedAt) != time.Second {
			t.Errorf("after a panicking scheduled check: %+v", got)
		}
	})
}

// A check-now whose monitor is deleted while it runs records nothing, so
// it gives its scan back and answers not_found.
func TestMonitorCheckDeletedMidCheck(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		var deleteNow func()
		e := newMonitorEnv(t, dbtest.Open(t, d), extractHook(t, func(raw []byte) {
			if bytes.Contains(raw, []byte("GONE")) {
				deleteNow()
			}
		}))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		deleteNow = func() {
			if err := e.Svc.DeleteMonitor(ctx, m.ID); err != nil {
				t.Error(err)
			}
		}
		before := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, "<p>GONE</p>"), ""))
		if _, err := e.Svc.CheckMonitor(ctx, m.ID); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("check-now of a monitor deleted mid-check: %v", err)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("a check that recorded nothing took %d scans", used-before)
		}
	})
}

// panickyStore panics in the usage log's first prune.
type panickyStore struct {
	app.Store
	prunes atomic.Int32
}

func (s *panickyStore) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	if s.prunes.Add(1) == 1 {
		panic("prune bug")
	}
	return s.Store.PruneRequests(ctx, before)
}

// A background loop that panics is logged once and started again; Run
// goes on and ends cleanly.
func TestBackgroundLoopPanicRestarts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &logBuffer{}
		store := &panickyStore{Store: dbtest.Open(t, d)}
		e := apptest.New(t, store, apptest.Configure(logTo(logs)))
		for deadline := time.Now().Add(10 * time.Second); store.prunes.Load() < 2 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
		if n := store.prunes.Load(); n < 2 {
			t.Fatalf("the prune loop ran %d times; not restarted after its panic", n)
		}
		if err := e.Stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
		if n := logs.panics(); n != 1 {
			t.Errorf("the panic was logged %d times", n)
		}
	})
}

// A batch item whose analysis panics is that item's internal error with its
// scan given back; the other items stand and the process (this test) lives.
func TestBatchItemPanicIsItsError(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &logBuffer{}
		e := newMonitorEnv(t, dbtest.Open(t, d), logTo(logs), panicOn(t, "BOOM"))
		tok, acct := e.MustAccount("b@example.com")
		e.SetTier(acct.ID, app.TierAdvanced)
		ctx := e.Ctx(e.MustKey(tok, "analyze").RawKey)
		e.Docs.Set("/ok", html(terms("n1", "3 May 2026", "a=1", false), ""))
		e.Docs.Set("/boom", html(terms("n1", "3 May 2026", "a=1", false, "<p>BOOM</p>"), ""))
		res, err := e.Svc.AnalyzeBatch(ctx, app.BatchInput{Items: []app.AnalyzeInput{{URL: e.Docs.URL("/ok")}, {URL: e.Docs.URL("/boom")}}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Results[0].OK || res.Results[1].OK || res.Results[1].Error.Code != app.CodeInternal {
			t.Errorf("results: %+v", res.Results)
		}
		if used := scansUsed(t, e.Svc, ctx); used != 1 {
			t.Errorf("scans used = %d, want 1 (the panicking item's given back)", used)
		}
		if n := logs.panics(); n != 1 {
			t.Errorf("%d panics logged, want 1", n)
		}
	})
}

// panickyRecord panics while recording a check.
type panickyRecord struct{ app.Store }

func (s *panickyRecord) FinishCheck(context.Context, *app.CheckRecord) (bool, error) {
	panic("record bug")
}

// A panic past the check itself (recording it) loses the check: check-now
// answers an internal error and gives its scan back, and the process (this
// test) lives on.
func TestCheckPanicPastTheCheckIsLost(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, &panickyRecord{dbtest.Open(t, d)})
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		before := scansUsed(t, e.Svc, ctx)
		if _, err := e.Svc.CheckMonitor(ctx, m.ID); app.ErrorCode(err) != app.CodeInternal {
			t.Errorf("check whose record panicked: %v, want internal", err)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("the lost check took %d scans", used-before)
		}
	})
}
