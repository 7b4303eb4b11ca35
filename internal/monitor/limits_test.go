package monitor_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// overLimit is a plain-text page whose text is a little over
// app.MaxTextChars.
func overLimit() apptest.Page {
	para := "We may change these terms at any time and will tell you by email.\n\n"
	return apptest.Page{ContentType: "text/plain; charset=utf-8", Body: strings.Repeat(para, app.MaxTextChars/len(para)+100)}
}

// One text limit for every source: a fetched page over it cannot be
// extracted, analyzed (alone or in a batch) or monitored (422, nothing
// stored), a pasted text over it is invalid, and a monitored page that
// grows over it fails its check as too_large, without an alert. The page
// was fetched and read whole before it was refused, so each of those
// refusals keeps its scan (the check made now too): repeating it is not
// free. A pasted text is refused before any work and keeps nothing.
func TestTextLimitEverySource(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierAdvanced)
		ctx := e.Ctx(e.MustKey(tok, "extract", "analyze", "monitor").RawKey)
		e.Docs.Set("/small", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/small"))
		e.Docs.Set("/big", overLimit())
		e.Docs.Set("/small", overLimit())
		big := e.Docs.URL("/big")
		used := scansUsed(t, e.Svc, ctx)

		for _, c := range []struct {
			name string
			call func() error
			want app.Code
		}{
			{"extract", func() error { _, err := e.Svc.Extract(ctx, app.ExtractInput{URL: big}); return err }, app.CodeUnreadable},
			{"analyze url", func() error { _, err := e.Svc.Analyze(ctx, app.AnalyzeInput{URL: big}); return err }, app.CodeUnreadable},
			{"batch item", func() error {
				res, err := e.Svc.AnalyzeBatch(ctx, app.BatchInput{Items: []app.AnalyzeInput{{URL: big}}})
				if err != nil || res.Results[0].OK {
					return fmt.Errorf("batch: %v", err)
				}
				return &app.Error{Code: res.Results[0].Error.Code}
			}, app.CodeUnreadable},
			{"analyze text", func() error {
				_, err := e.Svc.Analyze(ctx, app.AnalyzeInput{Text: strings.Repeat("x", app.MaxTextChars+1)})
				return err
			}, app.CodeInvalid},
			{"create monitor", func() error { _, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: big}); return err }, app.CodeUnreadable},
		} {
			if err := c.call(); err == nil || app.ErrorCode(err) != c.want {
				t.Errorf("%s: %v, want %s", c.name, err, c.want)
			}
		}

		got := e.mustCheck(t, ctx, m.ID)
		if got.ConsecutiveFailures != 1 || !strings.Contains(got.LastError, "1,500,000") || got.LastErrorCode != "too_large" || got.LastChangedAt != nil {
			t.Errorf("check of a page grown over the limit: %+v", got)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Errorf("%d alerts", len(a))
		}
		if n := scansUsed(t, e.Svc, ctx); n != used+5 {
			t.Errorf("%d scans kept, want 5 (extract, analyze, batch item, create, check)", n-used)
		}
		if ms, err := e.Mon.FindMonitors(ctx); err != nil || len(ms) != 1 {
			t.Errorf("monitors %d (%v), want only the first", len(ms), err)
		}
		if page, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{}); err != nil || len(page.Analyses) != 0 {
			t.Errorf("analyses stored: %+v %v", page, err)
		}
	})
}

// An HTML page past the extractor's node budget is refused while it is
// read (422) and keeps its scan like a text over the limit; a page that
// fails for another reason (here, no text at all) gives it back.
func TestNodeBudgetKeepsTheScan(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		tok, _ := e.MustAccount("")
		ctx := e.Ctx(e.MustKey(tok, "extract").RawKey)
		e.Docs.Set("/bomb", apptest.Page{ContentType: "text/html", Body: strings.Repeat("<b>xy</b>", 200_000)})
		e.Docs.Set("/empty", apptest.Page{ContentType: "text/html", Body: "<html><body><div></div></body></html>"})
		used := scansUsed(t, e.Svc, ctx)
		for _, c := range []struct {
			path string
			kept int
		}{{"/bomb", 1}, {"/empty", 0}} {
			_, err := e.Svc.Extract(ctx, app.ExtractInput{URL: e.Docs.URL(c.path)})
			if app.ErrorCode(err) != app.CodeUnreadable {
				t.Errorf("%s: %v, want unreadable", c.path, err)
			}
			n := scansUsed(t, e.Svc, ctx)
			if n != used+c.kept {
				t.Errorf("%s: %d scans kept, want %d", c.path, n-used, c.kept)
			}
			used = n
		}
	})
}

// An alert's analyses take a place of the analysis bound: with every place
// taken the check is refused as busy, a retry and not the monitor's
// failure (nothing recorded, no failure counted, the scan given back);
// once one is free the same change raises its alert.
func TestAlertAnalysesShareTheAnalysisBound(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d), apptest.Configure(func(o *app.Options) {
			o.AnalysisConcurrency, o.AnalysisWait = 1, 20*time.Millisecond
		}))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		used := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))

		release := fillAnalyses(t, e.Svc)
		_, err := e.Mon.CheckMonitor(ctx, m.ID)
		release()
		if app.ErrorCode(err) != app.CodeBusy {
			t.Errorf("check with every analysis place taken: %v, want busy", err)
		}
		if got, _ := e.Mon.FindMonitor(ctx, m.ID); got.ConsecutiveFailures != 0 || got.LastError != "" || got.LastChangedAt != nil {
			t.Errorf("after the busy check: %+v", got)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Errorf("%d alerts while the analyses were full", len(a))
		}
		if n := scansUsed(t, e.Svc, ctx); n != used {
			t.Errorf("the busy check kept its scan")
		}
		if got := e.mustCheck(t, ctx, m.ID); got.ConsecutiveFailures != 0 || got.LastChangedAt == nil {
			t.Errorf("check with a place free: %+v", got)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 1 {
			t.Errorf("%d alerts, want 1", len(a))
		}
	})
}

// fillAnalyses takes svc's one analysis place until release is called, as
// a long analysis would.
func fillAnalyses(t *testing.T, svc *app.Service) (release func()) {
	taken, done := make(chan struct{}), make(chan struct{})
	go func() {
		if err := svc.InAnalysisPlace(context.Background(), 1, func() { close(taken); <-done }); err != nil {
			t.Error(err)
			close(taken)
		}
	}()
	<-taken
	return func() { close(done) }
}

// changing serves a terms page whose text changes on every request.
func changing() http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html(terms("n1", "3 May 2026", "a=1", false, fmt.Sprintf("<p>Revision %d of these terms.</p>", n.Add(1))), "").ServeHTTP(w, r)
	})
}

// A change found by a check someone asked for is recorded and reported at
// once, however soon after the last: a clause added and taken out again
// within the hour raises two alerts, and the page is at its first text again. A page that
// changes on every check is reported each time, and from its third change
// in a row the alert says it seems to change constantly.
func TestCheckNowAlwaysRecordsAndReports(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		e.Clock.Set(time.Now().Truncate(time.Second))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, ctx, e.Docs.URL("/terms")) // interval 1h

		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))
		e.Clock.Advance(time.Minute)
		e.mustCheck(t, ctx, m.ID)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		e.Clock.Advance(time.Minute)
		got := e.mustCheck(t, ctx, m.ID)
		alerts := e.alerts(t, ctx, monitor.AlertFilter{})
		if len(alerts) != 2 || !strings.Contains(alerts[0].Diff, "-Any dispute") || !strings.Contains(alerts[1].Diff, "+Any dispute") {
			t.Fatalf("a clause added then taken out, checked now each time: %+v", alerts)
		}
		if got.LastChangedAt == nil || !got.LastChangedAt.Equal(e.Clock.Now()) {
			t.Errorf("lastChangedAt %v, want the second check's time %v", got.LastChangedAt, e.Clock.Now())
		}
		// Two distinct texts, the first seen again by the second check.
		if vp, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: m.ID, Limit: ptr(100)}); err != nil || len(vp.Versions) != 2 || vp.Versions[1].ContentHash != got.ContentHash {
			t.Errorf("versions %+v (%v), want the clause's and the first seen again: none left unrecorded", vp, err)
		}

		e.Docs.Handle("/terms", changing())
		for n := 3; n <= 5; n++ { // the changes in a row go on from the clause's two
			e.Clock.Advance(time.Minute)
			e.mustCheck(t, ctx, m.ID)
			if a := e.alerts(t, ctx, monitor.AlertFilter{})[0]; !strings.Contains(a.Summary, fmt.Sprintf("changed on each of its last %d checks", n)) {
				t.Errorf("change %d in a row: summary %q", n, a.Summary)
			}
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{Limit: ptr(100)}); strings.Contains(a[3].Summary, "constantly") {
			t.Errorf("the second change in a row already says constantly: %q", a[3].Summary)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{Limit: ptr(100)}); len(a) != 5 {
			t.Errorf("%d alerts, want 5: one a change", len(a))
		}
	})
}

// History is kept per plan: versions by count and age (the current one
// always), alerts by age; the plan at the time of the prune decides, and a
// deleted monitor's versions go.
func TestMonitorHistoryRetention(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		e.Clock.Set(time.Now().Add(1000 * time.Hour).Truncate(time.Second))
		callers := map[app.Tier]context.Context{}
		monitors := map[app.Tier]*monitor.Monitor{}
		accounts := map[app.Tier]string{}
		for _, tier := range []app.Tier{app.TierFree, app.TierAdvanced} {
			tok, acct := e.MustAccount("")
			e.SetTier(acct.ID, app.TierAdvanced) // enough scans to check often
			callers[tier], accounts[tier] = e.Ctx(e.MustKey(tok, "monitor").RawKey), acct.ID
			e.Docs.Handle("/"+string(tier), changing())
			monitors[tier] = e.mustCreate(t, callers[tier], e.Docs.URL("/"+string(tier)))
		}
		for range 12 {
			e.Clock.Advance(time.Hour)
			for tier, m := range monitors {
				e.mustCheck(t, callers[tier], m.ID)
			}
		}
		e.SetTier(accounts[app.TierFree], app.TierFree)
		count := func(tier app.Tier) (versions, alerts int) {
			t.Helper()
			vp, err := e.Mon.FindMonitorVersions(callers[tier], monitor.VersionFilter{MonitorID: monitors[tier].ID, Limit: ptr(100)})
			if err != nil {
				t.Fatal(err)
			}
			return len(vp.Versions), len(e.alerts(t, callers[tier], monitor.AlertFilter{Limit: ptr(100)}))
		}
		prune := func() {
			t.Helper()
			if _, err := e.Mon.PruneMonitorHistory(context.Background()); err != nil {
				t.Fatal(err)
			}
		}

		prune()
		if v, a := count(app.TierFree); v != 10 || a != 12 {
			t.Errorf("free: %d versions, %d alerts; want the newest 10 versions and every alert", v, a)
		}
		if v, a := count(app.TierAdvanced); v != 13 || a != 12 {
			t.Errorf("advanced: %d versions, %d alerts; want all 13 and 12", v, a)
		}

		e.Clock.Advance(91 * 24 * time.Hour)
		prune()
		if v, a := count(app.TierFree); v != 1 || a != 0 {
			t.Errorf("free after 91 days: %d versions, %d alerts; want the current version alone", v, a)
		}
		if v, a := count(app.TierAdvanced); v != 13 || a != 12 {
			t.Errorf("advanced after 91 days: %d versions, %d alerts; want all", v, a)
		}
		// The current version is what the next check compares with.
		e.mustCheck(t, callers[app.TierFree], monitors[app.TierFree].ID)
		if _, a := count(app.TierFree); a != 1 {
			t.Errorf("free: the check after the prune raised %d alerts, want 1", a)
		}

		adv := monitors[app.TierAdvanced]
		if err := e.Mon.DeleteMonitor(callers[app.TierAdvanced], adv.ID); err != nil {
			t.Fatal(err)
		}
		prune()
		if vs, err := e.Store.FindVersions(context.Background(), adv.ID, nil, 100); err != nil || len(vs) != 0 {
			t.Errorf("deleted monitor: %d versions (%v), want none", len(vs), err)
		}
		if a := e.alerts(t, callers[app.TierAdvanced], monitor.AlertFilter{Limit: ptr(100)}); len(a) != 12 {
			t.Errorf("deleted monitor: %d alerts, want its 12 still readable", len(a))
		}
	})
}

// An alert keeps at most MaxAlertDiff bytes of its diff, cut at a line's
// end and saying how much was left out; a shorter diff is kept whole.
func TestAlertDiffCapped(t *testing.T) {
	short := "--- previous\n+++ current\n@@ -1 +1 @@\n-a\n+b\n"
	if got := monitor.CapDiff(short); got != short {
		t.Errorf("short diff changed: %q", got)
	}
	long := "--- previous\n+++ current\n@@ -1,40000 +1,40000 @@\n" + strings.Repeat("-an old paragraph of the terms\n+a new paragraph\n", 20000)
	got := monitor.CapDiff(long)
	if len(got) > monitor.MaxAlertDiff+100 || !strings.HasPrefix(long, got[:strings.LastIndex(got, "...")]) ||
		!strings.HasSuffix(got, " more lines of the diff not shown\n") {
		t.Errorf("capped diff: %d bytes, ends %q", len(got), got[max(len(got)-80, 0):])
	}
}
