package monitor_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// A check that panics is the monitor's failure like any other: counted,
// backed off, with a plain lastError, logged once with its stack; the
// check-now gives its scan back and the process lives on.
func TestMonitorCheckPanicIsAFailure(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &apptest.Logs{}
		e := newMonitorEnv(t, dbtest.Open(t, d), apptest.LogTo(logs), apptest.PanicOn(t, "BOOM"))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		before := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, "<p>BOOM</p>"), ""))
		got := e.mustCheck(t, ctx, m.ID)
		if got.Status() != monitor.MonitorFailing || got.ConsecutiveFailures != 1 || got.NextCheckAt.Sub(*got.LastCheckedAt) != 30*time.Second ||
			got.LastError == "" || strings.Contains(got.LastError, "BOOM") || strings.Contains(got.LastError, "goroutine") {
			t.Errorf("after a panicking check: %+v", got)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("the panicking check took %d scans", used-before)
		}
		if n := logs.Panics(); n != 1 {
			t.Errorf("the panic was logged %d times", n)
		}
	})
}

// The scheduler's checks recover the same way: the monitor records the
// failure and the process (this test) survives.
func TestSchedulerSurvivesAPanickingCheck(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d), apptest.Monitoring(func(o *monitor.Options) { o.Workers = 4 }), apptest.PanicOn(t, "BOOM"))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/s"), IntervalSeconds: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false, "<p>BOOM</p>"), ""))
		got := m
		for deadline := time.Now().Add(10 * time.Second); got.ConsecutiveFailures == 0 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			if got, err = e.Mon.FindMonitor(ctx, m.ID); err != nil {
				t.Fatal(err)
			}
		}
		// Backoff is 30s doubling, capped at the 1s interval, so the checks
		// go on failing.
		if got.ConsecutiveFailures < 1 || got.Status() != monitor.MonitorFailing || got.NextCheckAt.Sub(*got.LastCheckedAt) != time.Second {
			t.Errorf("after a panicking scheduled check: %+v", got)
		}
	})
}

// A check-now whose monitor is deleted while it runs records nothing, so
// it gives its scan back and answers not_found.
func TestMonitorCheckDeletedMidCheck(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		var deleteNow func()
		e := newMonitorEnv(t, dbtest.Open(t, d), apptest.ExtractHook(t, func(raw []byte) {
			if bytes.Contains(raw, []byte("GONE")) {
				deleteNow()
			}
		}))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		deleteNow = func() {
			if err := e.Mon.DeleteMonitor(ctx, m.ID); err != nil {
				t.Error(err)
			}
		}
		before := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, "<p>GONE</p>"), ""))
		if _, err := e.Mon.CheckMonitor(ctx, m.ID); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("check-now of a monitor deleted mid-check: %v", err)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("a check that recorded nothing took %d scans", used-before)
		}
	})
}

// panickyRecord panics while recording a check.
type panickyRecord struct{ apptest.Store }

func (s *panickyRecord) FinishCheck(context.Context, *monitor.CheckRecord) (bool, error) {
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
		if _, err := e.Mon.CheckMonitor(ctx, m.ID); app.ErrorCode(err) != app.CodeInternal {
			t.Errorf("check whose record panicked: %v, want internal", err)
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("the lost check took %d scans", used-before)
		}
	})
}
