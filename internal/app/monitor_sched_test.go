package app_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/app/apptest"
)

// A server that answers 304 to every conditional GET hides a change only
// until the page's daily whole fetch: a day after the last one the check
// sends no validators, sees the change and alerts; the check after that is
// conditional again.
func TestWholeFetchDaily(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), `"v1"`)
		var mu sync.Mutex
		var sent []string                                                          // the If-None-Match of each check's request
		page := html(terms("n1", "3 May 2026", "a=1", false, arbitration), `"v1"`) // changed, same ETag
		e.Docs.Handle("/terms", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			sent = append(sent, r.Header.Get("If-None-Match"))
			mu.Unlock()
			page.ServeHTTP(w, r)
		}))
		if got := e.mustCheck(t, ctx, m.ID); got.LastChangedAt != nil {
			t.Fatalf("a 304 saw a change: %+v", got)
		}
		e.Clock.Set(time.Now().Add(wholeFetchEvery))
		if got := e.mustCheck(t, ctx, m.ID); got.LastChangedAt == nil {
			t.Errorf("the whole fetch a day on missed the change: %+v", got)
		}
		if a := e.alerts(t, ctx, app.AlertFilter{}); len(a) != 1 {
			t.Errorf("%d alerts, want 1", len(a))
		}
		e.Clock.Advance(time.Hour)
		e.mustCheck(t, ctx, m.ID)
		mu.Lock()
		defer mu.Unlock()
		if len(sent) != 3 || sent[0] != `"v1"` || sent[1] != "" || sent[2] != `"v1"` {
			t.Errorf("If-None-Match of the three checks: %q, want v1, none, v1", sent)
		}
	})
}

// wholeFetchEvery plus a minute: app's constant is a day.
const wholeFetchEvery = 24*time.Hour + time.Minute

// Fairness between accounts: one account's eight monitors, each taking
// 1.5s to answer, could keep both workers busy for ever (12s of checks due
// every second); another account's one fast monitor, due every second, is
// still checked at least every interval plus one slow check plus a second
// of slack: a worker that frees takes the monitor of the account with the
// fewest checks in flight.
func TestSchedulerFairBetweenAccounts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d), func(o *app.Options) { o.Monitor.Workers = 2 })
		const slowCheck = 1500 * time.Millisecond
		var slow atomic.Bool
		static := html(terms("n1", "3 May 2026", "a=1", false), "")
		slowPage := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if slow.Load() {
				time.Sleep(slowCheck)
			}
			static.ServeHTTP(w, r)
		})
		var mu sync.Mutex
		var hits []time.Time
		e.Docs.Handle("/fast", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits = append(hits, time.Now())
			mu.Unlock()
			static.ServeHTTP(w, r)
		}))
		busy, idle := e.mustCaller(t, app.TierAdvanced), e.mustCaller(t, app.TierAdvanced)
		for i := range 8 {
			path := "/slow/" + string(rune('a'+i))
			e.Docs.Handle(path, slowPage)
			if _, err := e.Svc.CreateMonitor(busy, app.MonitorCreate{URL: e.Docs.URL(path), IntervalSeconds: ptr(1)}); err != nil {
				t.Fatal(err)
			}
		}
		slow.Store(true)
		if _, err := e.Svc.CreateMonitor(idle, app.MonitorCreate{URL: e.Docs.URL("/fast"), IntervalSeconds: ptr(1)}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		time.Sleep(10 * time.Second)
		end := time.Now()
		mu.Lock()
		defer mu.Unlock()
		bound := time.Second + slowCheck + time.Second
		prev, worst := start, time.Duration(0)
		for _, h := range append(hits[1:], end) { // hits[0] is the creation's fetch
			worst = max(worst, h.Sub(prev))
			prev = h
		}
		if worst > bound {
			t.Errorf("the fast monitor waited %v between checks, want at most %v (%d checks in 10s)", worst.Round(time.Millisecond), bound, len(hits)-1)
		}
		t.Logf("%d checks of the fast monitor in 10s, longest gap %v", len(hits)-1, worst.Round(time.Millisecond))
	})
}
