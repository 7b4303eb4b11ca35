package monitor_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

const harmless = `<p>Our support team answers email on weekdays.</p>`

// alertOn risk raises nothing for a harmless change (which it still records
// as the current version) and an alert for an added arbitration clause; a
// monitor on any alerts on both. An unknown alertOn is invalid.
func TestAlertOnRisk(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		ctx := e.mustCaller(t, app.TierAdvanced)
		for _, p := range []string{"/risk", "/any"} {
			e.Docs.Set(p, html(terms("n1", "3 May 2026", "a=1", false), ""))
		}
		risk, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/risk"), IntervalSeconds: ptr(3600), AlertOn: ptr("risk")})
		if err != nil || risk.AlertOn != monitor.AlertOnRisk {
			t.Fatalf("create risk: %+v %v", risk, err)
		}
		anyM := e.mustCreate(t, ctx, e.Docs.URL("/any"))
		if anyM.AlertOn != monitor.AlertOnAny {
			t.Errorf("default alertOn %q", anyM.AlertOn)
		}
		if _, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/any"), AlertOn: ptr("sometimes")}); app.ErrorCode(err) != app.CodeInvalid {
			t.Errorf("alertOn sometimes: %v", err)
		}

		for _, p := range []string{"/risk", "/any"} {
			e.Docs.Set(p, html(terms("n1", "3 May 2026", "a=1", false, harmless), ""))
		}
		got := e.mustCheck(t, ctx, risk.ID)
		e.mustCheck(t, ctx, anyM.ID)
		if a := e.alerts(t, ctx, monitor.AlertFilter{MonitorID: risk.ID}); len(a) != 0 {
			t.Fatalf("risk monitor alerted on a harmless change: %q", a[0].Summary)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{MonitorID: anyM.ID}); len(a) != 1 {
			t.Fatalf("any monitor: %d alerts, want 1", len(a))
		}
		if got.AlertOn != monitor.AlertOnRisk || got.LastChangedAt != nil {
			t.Errorf("risk monitor after the harmless change: %+v", got)
		}
		vp, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: risk.ID})
		if err != nil || len(vp.Versions) != 2 {
			t.Fatalf("the harmless change is not the current version: %+v %v", vp, err)
		}

		e.Docs.Set("/risk", html(terms("n1", "3 May 2026", "a=1", false, harmless, arbitration), ""))
		e.mustCheck(t, ctx, risk.ID)
		a := e.alerts(t, ctx, monitor.AlertFilter{MonitorID: risk.ID})
		if len(a) != 1 || a[0].Added != 1 || a[0].Removed != 0 || !strings.Contains(a[0].Summary, "arbitration") {
			t.Fatalf("risk monitor after the arbitration clause: %+v", a)
		}
	})
}

// alertOn is changed after creation: a risk monitor switched to any alerts
// on the next harmless change, and back to risk stays quiet again. Scans are
// not touched; a missing or wrong field is invalid naming it, another
// account's monitor and an unknown or deleted one are not_found, and a key
// without the monitor scope is forbidden.
func TestUpdateMonitorAlertOn(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		ctx, other := e.mustCaller(t, app.TierAdvanced), e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/terms"), IntervalSeconds: ptr(1), AlertOn: ptr("risk")})
		if err != nil {
			t.Fatal(err)
		}
		used := scansUsed(t, e.Svc, ctx)
		got, err := e.Mon.UpdateMonitor(ctx, m.ID, monitor.MonitorUpdate{AlertOn: ptr("any")})
		if err != nil || got.AlertOn != monitor.AlertOnAny || got.ID != m.ID || got.URL != m.URL {
			t.Fatalf("update to any: %+v %v", got, err)
		}
		if ms, _ := e.Mon.FindMonitors(ctx); len(ms) != 1 || ms[0].AlertOn != monitor.AlertOnAny {
			t.Errorf("monitors read back %+v", ms)
		}
		if n := scansUsed(t, e.Svc, ctx); n != used {
			t.Errorf("the update used %d scans", n-used)
		}
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, harmless), ""))
		e.mustCheck(t, ctx, m.ID)
		if a := e.alerts(t, ctx, monitor.AlertFilter{MonitorID: m.ID}); len(a) != 1 {
			t.Fatalf("switched to any: %d alerts on a harmless change, want 1", len(a))
		}

		if _, err := e.Mon.UpdateMonitor(ctx, m.ID, monitor.MonitorUpdate{AlertOn: ptr("risk")}); err != nil {
			t.Fatal(err)
		}
		e.Clock.Advance(2 * time.Second) // a moment later
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		e.mustCheck(t, ctx, m.ID)
		if a := e.alerts(t, ctx, monitor.AlertFilter{MonitorID: m.ID}); len(a) != 1 {
			t.Errorf("switched back to risk: %d alerts after a harmless change, want 1", len(a))
		}

		deleted := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
		if err := e.Mon.DeleteMonitor(ctx, deleted.ID); err != nil {
			t.Fatal(err)
		}
		tok, _ := e.MustAccount("scopeless@example.com")
		noScope := e.Ctx(e.MustKey(tok, "extract").RawKey)
		for _, c := range []struct {
			name  string
			ctx   context.Context
			id    string
			in    monitor.MonitorUpdate
			code  app.Code
			field string
		}{
			{"no id", ctx, "", monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeInvalid, "id"},
			{"no alertOn", ctx, m.ID, monitor.MonitorUpdate{}, app.CodeInvalid, "alertOn"},
			{"unknown alertOn", ctx, m.ID, monitor.MonitorUpdate{AlertOn: ptr("never")}, app.CodeInvalid, "alertOn"},
			{"another account's", other, m.ID, monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeNotFound, ""},
			{"unknown", ctx, "00000000-0000-4000-8000-000000000000", monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeNotFound, ""},
			{"not a UUID", ctx, "x", monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeNotFound, ""},
			{"deleted", ctx, deleted.ID, monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeNotFound, ""},
			{"no monitor scope", noScope, m.ID, monitor.MonitorUpdate{AlertOn: ptr("any")}, app.CodeForbidden, ""},
		} {
			_, err := e.Mon.UpdateMonitor(c.ctx, c.id, c.in)
			if app.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
				continue
			}
			if c.field != "" {
				if f := app.AsError(err).Fields; len(f) != 1 || f[0].Field != c.field {
					t.Errorf("%s: details %+v, want %s", c.name, f, c.field)
				}
			}
		}
		if got, _ := e.Mon.FindMonitor(ctx, m.ID); got.AlertOn != monitor.AlertOnRisk {
			t.Errorf("refused updates changed alertOn to %q", got.AlertOn)
		}
	})
}

// A feed token reads the account's alerts and one monitor's; rotating it
// refuses the old one at once; API keys can neither rotate nor read with
// their own secret.
func TestFeedTokenRotation(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("feed@example.com")
		e.SetTier(acct.ID, app.TierAdvanced)
		key := e.MustKey(tok, "monitor")
		session, keyCtx := e.Ctx(tok), e.Ctx(key.RawKey)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := e.mustCreate(t, keyCtx, e.Docs.URL("/terms"))
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))
		e.mustCheck(t, keyCtx, m.ID)

		if _, err := e.Mon.FindFeedToken(session); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("feed token before any: %v", err)
		}
		if _, err := e.Mon.RotateFeedToken(keyCtx); app.ErrorCode(err) != app.CodeForbidden {
			t.Errorf("rotate with an API key: %v", err)
		}
		first, err := e.Mon.RotateFeedToken(session)
		if err != nil || !strings.HasPrefix(first.Token, monitor.FeedTokenPrefix) || first.Prefix != first.Token[:12] {
			t.Fatalf("rotate: %+v %v", first, err)
		}
		f, err := e.Mon.ReadFeed(t.Context(), first.Token, "")
		if err != nil || len(f.Alerts) != 1 || f.Monitor != nil {
			t.Fatalf("account feed: %+v %v", f, err)
		}
		f, err = e.Mon.ReadFeed(t.Context(), first.Token, m.ID)
		if err != nil || len(f.Alerts) != 1 || f.Monitor == nil || f.Monitor.ID != m.ID {
			t.Fatalf("monitor feed: %+v %v", f, err)
		}
		second, err := e.Mon.RotateFeedToken(session)
		if err != nil || second.Token == first.Token {
			t.Fatalf("rotate again: %v", err)
		}
		for name, token := range map[string]string{"the old token": first.Token, "an API key": key.RawKey, "empty": "",
			"malformed": monitor.FeedTokenPrefix + "x"} {
			if _, err := e.Mon.ReadFeed(t.Context(), token, ""); app.ErrorCode(err) != app.CodeUnauthenticated {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := e.Mon.ReadFeed(t.Context(), second.Token, ""); err != nil {
			t.Errorf("the new token: %v", err)
		}
		if _, err := e.Mon.ReadFeed(t.Context(), second.Token, "00000000-0000-4000-8000-000000000000"); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("an unknown monitor: %v", err)
		}
		ft, err := e.Mon.FindFeedToken(keyCtx)
		if err != nil || ft.Prefix != second.Prefix {
			t.Errorf("feed token: %+v %v", ft, err)
		}
	})
}

// The diff between versions 1 and 3 of a document spans both changes; each
// version of the history carries its grade, and the grade moves with the
// arbitration clause.
func TestVersionHistoryDiff(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), "")
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, harmless), ""))
		e.mustCheck(t, ctx, m.ID)
		e.Clock.Advance(2 * time.Hour) // past the interval: the next change alerts
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, harmless, arbitration), ""))
		e.mustCheck(t, ctx, m.ID)

		page, err := e.Mon.FindVersionHistory(ctx, monitor.VersionFilter{MonitorID: m.ID})
		if err != nil || len(page.Versions) != 3 {
			t.Fatalf("history: %+v %v", page, err)
		}
		v3, v2, v1 := page.Versions[0], page.Versions[1], page.Versions[2]
		if v1.Grade == "" || v1.Grade != v2.Grade || v3.Grade <= v1.Grade {
			t.Errorf("grades v1 %q v2 %q v3 %q", v1.Grade, v2.Grade, v3.Grade)
		}
		diff, err := e.Mon.DiffMonitorVersions(ctx, m.ID, v1.ContentHash, v3.ContentHash)
		if err != nil {
			t.Fatal(err)
		}
		if diff.Added != 2 || diff.Removed != 0 || !strings.Contains(diff.Diff, "+Our support team answers email") ||
			!strings.Contains(diff.Diff, "+Any dispute arising") || diff.GradeBefore != v1.Grade || diff.GradeAfter != v3.Grade ||
			diff.From.ContentHash != v1.ContentHash || diff.To.ContentHash != v3.ContentHash || diff.To.Grade != v3.Grade {
			t.Errorf("diff 1..3: %+v\n%s", diff, diff.Diff)
		}
		if len(diff.FindingsAdded) == 0 || diff.FindingsAdded[0].Category != "arbitration" || len(diff.FindingsRemoved) != 0 {
			t.Errorf("findings added %+v removed %+v", diff.FindingsAdded, diff.FindingsRemoved)
		}
		back, err := e.Mon.DiffMonitorVersions(ctx, m.ID, v3.ContentHash, v1.ContentHash)
		if err != nil || back.Added != 0 || back.Removed != 2 || len(back.FindingsRemoved) == 0 {
			t.Errorf("diff 3..1: %+v %v", back, err)
		}
		for name, c := range map[string]struct {
			monitor, from, to string
			code              app.Code
		}{
			"no monitor":      {"", v1.ContentHash, v3.ContentHash, app.CodeInvalid},
			"not a hash":      {m.ID, "v1", v3.ContentHash, app.CodeInvalid},
			"unknown version": {m.ID, v1.ContentHash, strings.Repeat("0", 64), app.CodeNotFound},
			"unknown monitor": {"00000000-0000-4000-8000-000000000000", v1.ContentHash, v3.ContentHash, app.CodeNotFound},
		} {
			if _, err := e.Mon.DiffMonitorVersions(ctx, c.monitor, c.from, c.to); app.ErrorCode(err) != c.code {
				t.Errorf("%s: %v, want %s", name, err, c.code)
			}
		}
	})
}

// A caller that shows no diff (a feed, MCP) reads alerts without it: the
// same alerts, each with its diff left empty, and every other field as a
// full read gives it.
func TestAlertsWithoutDiff(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), "")
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))
		e.mustCheck(t, ctx, m.ID)
		full := e.alerts(t, ctx, monitor.AlertFilter{})
		lean := e.alerts(t, ctx, monitor.AlertFilter{WithoutDiff: true})
		if len(full) != 1 || full[0].Diff == "" || len(lean) != 1 || lean[0].Diff != "" {
			t.Fatalf("full %+v, without diff %+v", full, lean)
		}
		lean[0].Diff = full[0].Diff
		if !reflect.DeepEqual(full[0], lean[0]) {
			t.Errorf("without its diff the alert differs:\n%+v\n%+v", full[0], lean[0])
		}
	})
}
