package monitor_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
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
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 1 {
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

// Fairness between accounts, in the scheduler's own terms: one account's
// eight monitors, each taking 1.5s to answer, could keep both workers busy
// for ever (12s of checks due every second); another account's one fast
// monitor, due every second, must still be the next claim once a worker
// frees while the busy account holds a check. The contract (README,
// "fairness bound") ranks the fast monitor first whenever the busy account
// holds a check, so once it is due the busy account gets a claim only in a
// tie (every worker between checks at once, decided by due order) or while
// another worker's claim is taking the fast one: a busy claim made while a
// busy check was in flight from before the claim to after it, with the fast
// one due, is out of that order, and at most workers-1 of those (the
// concurrent claims) may come before the fast one's. Counting claims rather
// than seconds keeps the test exact on a machine starved of CPU, where every
// check takes longer (and workers fall into step) but the rank order of a
// claim does not change; in plain due order about six come first here.
func TestSchedulerFairBetweenAccounts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		const workers, fastClaims = 2, 4
		claims := &claimLog{Store: dbtest.Open(t, d)}
		e := newMonitorEnv(t, claims, apptest.Monitoring(func(o *monitor.Options) { o.Workers = workers }))
		const slowCheck = 1500 * time.Millisecond
		var slow atomic.Bool
		static := html(terms("n1", "3 May 2026", "a=1", false), "")
		e.Docs.Handle("/fast", static)
		slowPage := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if slow.Load() {
				time.Sleep(slowCheck)
			}
			static.ServeHTTP(w, r)
		})
		busy, idle := e.mustCaller(t, app.TierAdvanced), e.mustCaller(t, app.TierAdvanced)
		var busyAccount string
		for i := range 8 {
			path := "/slow/" + string(rune('a'+i))
			e.Docs.Handle(path, slowPage)
			m, err := e.Mon.CreateMonitor(busy, monitor.MonitorCreate{URL: e.Docs.URL(path), IntervalSeconds: ptr(1)})
			if err != nil {
				t.Fatal(err)
			}
			busyAccount = m.AccountID
			// Deleted at the end, so under -count the next run's claim
			// window (the 32 earliest due, README) is not filled with
			// this run's monitors, which the shared PostgreSQL keeps.
			t.Cleanup(func() { _ = e.Mon.DeleteMonitor(busy, m.ID) })
		}
		slow.Store(true)
		fast, err := e.Mon.CreateMonitor(idle, monitor.MonitorCreate{URL: e.Docs.URL("/fast"), IntervalSeconds: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Mon.DeleteMonitor(idle, fast.ID) })
		claims.watch(fast, busyAccount)
		// A deadline for a machine stalled outright, not a bound: each
		// period lasts about 2.5s.
		deadline := time.Now().Add(90 * time.Second)
		for claims.fastClaims() < fastClaims && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		n, worst, gap := claims.result()
		if n < fastClaims {
			t.Fatalf("the fast monitor was claimed %d times in 90s, want %d", n, fastClaims)
		}
		if worst > workers-1 {
			t.Errorf("the busy account was given %d claims out of rank order while the fast monitor was due, want at most %d", worst, workers-1)
		}
		t.Logf("%d claims of the fast monitor; at most %d of the busy account's out of rank order while it was due; longest wait past due %v", n, worst, gap.Round(time.Millisecond))
	})
}

// claimLog counts, for one watched monitor, the claims of the busy
// account's monitors made out of rank order while it was due: with a busy
// check in flight from before the claim to after it (other tests' monitors
// on the shared database belong to neither and are not counted). A period
// runs from when the watched check was recorded (or it was created) and the
// claim's clock had passed its next check, to its own next claim.
type claimLog struct {
	apptest.Store
	mu     sync.Mutex
	id     string
	busy   string     // the account whose claims are counted
	due    *time.Time // nil while the watched monitor is leased
	ahead  int        // other claims in the current period
	worst  int        // the most ahead of any period
	claims int
	late   time.Duration // the longest from due to claimed, in the scheduler's clock
	// The busy account's checks in flight (claimed, not yet recording) and
	// how many began recording: a claim that saw both unchanged had a busy
	// lease in force throughout its statement.
	inFlight map[string]bool
	finishes int
}

func (l *claimLog) watch(m *monitor.Monitor, busyAccount string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.id, l.busy, l.due, l.inFlight = m.ID, busyAccount, &m.NextCheckAt, map[string]bool{}
}

func (l *claimLog) ClaimDueMonitor(ctx context.Context, now, until time.Time, owner string) (*monitor.Monitor, error) {
	l.mu.Lock()
	due := l.due // what the statement can see: it starts after this
	held, finishes := len(l.inFlight), l.finishes
	l.mu.Unlock()
	m, err := l.Store.ClaimDueMonitor(ctx, now, until, owner)
	if err != nil || l.id == "" {
		return m, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case m.ID == l.id:
		if l.due != nil {
			l.late = max(l.late, now.Sub(*l.due))
		}
		l.claims++
		l.worst, l.ahead, l.due = max(l.worst, l.ahead), 0, nil
	case m.AccountID == l.busy && due != nil && due == l.due && !now.Before(*due) && held > 0 && l.finishes == finishes:
		l.ahead++
	}
	if m.AccountID == l.busy {
		l.inFlight[m.ID] = true
	}
	return m, err
}

// recording notes that a check of id begins to record (or give back) its lease.
func (l *claimLog) recording(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight[id] {
		delete(l.inFlight, id)
		l.finishes++
	}
}

func (l *claimLog) FinishCheck(ctx context.Context, c *monitor.CheckRecord) (bool, error) {
	l.recording(c.MonitorID)
	ok, err := l.Store.FinishCheck(ctx, c)
	l.mu.Lock()
	defer l.mu.Unlock()
	if ok && c.MonitorID == l.id {
		next := c.NextCheckAt
		l.due = &next
	}
	return ok, err
}

func (l *claimLog) ReleaseMonitor(ctx context.Context, id, owner string, next time.Time) error {
	l.recording(id)
	err := l.Store.ReleaseMonitor(ctx, id, owner, next)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && id == l.id {
		l.due = &next
	}
	return err
}

func (l *claimLog) fastClaims() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.claims
}

// result is the watched monitor's claims, the most busy claims out of rank
// order in one period while it was due (the open period included), and its longest
// wait from due to claimed.
func (l *claimLog) result() (claims, worst int, late time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.claims, max(l.worst, l.ahead), l.late
}
