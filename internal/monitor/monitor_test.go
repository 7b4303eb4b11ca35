package monitor_test

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	extractor "github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// html serves body as a terms page; with etag, a conditional GET naming it
// is answered 304.
func html(body, etag string) apptest.Page {
	p := apptest.Page{ContentType: "text/html; charset=utf-8", Body: body}
	if etag != "" {
		p.Header = http.Header{"Etag": {etag}}
	}
	return p
}

// The hostile answers a page can turn into.
var (
	broken  = apptest.Page{Status: http.StatusInternalServerError, ContentType: "text/plain", Body: "boom"}
	image   = apptest.Page{ContentType: "image/png", Body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}
	private = http.RedirectHandler("http://10.0.0.1/terms", http.StatusFound)
	// huge is 50 MB and growing.
	huge = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := []byte(strings.Repeat("<p>We may change these terms.</p>", 1000))
		for n := 0; n < 50<<20; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	reset = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	})
)

// terms renders a terms page. The noise arguments change what a real
// document's markup changes between two fetches and never its text.
func terms(nonce, footerDate, tracking string, spaced bool, extra ...string) string {
	sp := ""
	if spaced {
		sp = "\n    "
	}
	return `<!doctype html><html><head><title>Example Terms of Service</title>
<script nonce="` + nonce + `">window.csrf="` + nonce + `";</script></head><body>
<main><h1>Terms of Service</h1>
<p id="intro" class="lead">By using the service you` + sp + ` agree to these terms.</p>
<p>We may change these terms from time to time and will tell you by email.</p>
<p>Read our privacy policy at https://example.com/privacy?` + tracking + ` before you sign up.</p>
<p>You may close your account whenever you like from the settings page.</p>
` + strings.Join(extra, "\n") + `
<p>Page generated on ` + footerDate + `</p>
</main></body></html>`
}

func termsAttrsSwapped() string {
	return strings.Replace(terms("n1", "3 May 2026", "utm_source=a", false), `<p id="intro" class="lead">`, `<p class="lead"  id="intro">`, 1)
}

const arbitration = `<p>Any dispute arising from these terms shall be resolved by binding arbitration, and you waive any right to a class action.</p>`

type monitorEnv struct{ *apptest.Env }

// newMonitorEnv starts a service with monitoring set up for tests: a 1s
// minimum interval, no per-host spacing, a 5s lease and no scheduler
// (opts may add workers). Fetches time out after 3s: reading a page to
// the 10 MiB cap took over 1s under the race detector on a loaded machine,
// and the one hanging page of these tests waits it out.
func newMonitorEnv(t *testing.T, store apptest.Store, opts ...apptest.Option) *monitorEnv {
	t.Helper()
	base := []apptest.Option{apptest.FetchTimeout(3 * time.Second), apptest.Monitoring(func(o *monitor.Options) {
		o.MinInterval, o.HostInterval, o.Lease = time.Second, -1, 5*time.Second
	})}
	return &monitorEnv{apptest.New(t, store, append(base, opts...)...)}
}

// mustCaller makes an account of tier with a monitor key and returns a
// context calling as that key.
func (e *monitorEnv) mustCaller(t *testing.T, tier app.Tier) context.Context {
	t.Helper()
	tok, acct := e.MustAccount("m@example.com")
	e.SetTier(acct.ID, tier)
	return e.Ctx(e.MustKey(tok, "monitor").RawKey)
}

func (e *monitorEnv) mustCreate(t *testing.T, ctx context.Context, url string) *monitor.Monitor {
	t.Helper()
	m, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, Name: "terms", IntervalSeconds: ptr(3600)})
	if err != nil {
		t.Fatalf("create monitor: %v", err)
	}
	return m
}

// mustWatched starts a service on d with an advanced account watching
// /terms, served as body (with etag, when given).
func mustWatched(t *testing.T, d dbtest.Dialect, body, etag string) (*monitorEnv, context.Context, *monitor.Monitor) {
	t.Helper()
	e := newMonitorEnv(t, dbtest.Open(t, d))
	ctx := e.mustCaller(t, app.TierAdvanced)
	e.Docs.Set("/terms", html(body, etag))
	return e, ctx, e.mustCreate(t, ctx, e.Docs.URL("/terms"))
}

func (e *monitorEnv) mustCheck(t *testing.T, ctx context.Context, id string) *monitor.Monitor {
	t.Helper()
	m, err := e.Mon.CheckMonitor(ctx, id)
	if err != nil {
		t.Fatalf("check monitor: %v", err)
	}
	return m
}

func (e *monitorEnv) alerts(t *testing.T, ctx context.Context, f monitor.AlertFilter) []monitor.Alert {
	t.Helper()
	page, err := e.Mon.FindAlerts(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	return page.Alerts
}

func scansUsed(t *testing.T, svc *app.Service, ctx context.Context) int {
	t.Helper()
	kl, err := svc.KeyLimits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return kl.Keys[0].Status.Scans.Limit - kl.Keys[0].Status.Scans.Remaining
}

// Noise never raises an alert; a real clause change raises exactly one,
// with the diff, the arbitration finding (ToS;DR's case, which it rates
// bad) and the grade it moved; checking again raises nothing.
func TestMonitorDetectsRealChangesOnly(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "utm_source=a", false), "")
		if m.Status() != monitor.MonitorActive || m.LastCheckedAt == nil || m.NextCheckAt.Before(m.CreatedAt.Add(time.Hour)) {
			t.Errorf("new monitor %+v", m)
		}
		noise := map[string]string{
			"white space":       terms("n1", "3 May 2026", "utm_source=a", true),
			"attribute order":   termsAttrsSwapped(),
			"tracking params":   terms("n1", "3 May 2026", "utm_source=b&gclid=xyz", false),
			"a rotating nonce":  terms("n2", "3 May 2026", "utm_source=a", false),
			"a generated date":  terms("n1", "4 May 2026", "utm_source=a", false),
			"all of them again": terms("n3", "5 June 2026", "fbclid=1", true),
		}
		for name, body := range noise {
			e.Docs.Set("/terms", html(body, ""))
			e.mustCheck(t, ctx, m.ID)
			if got := e.alerts(t, ctx, monitor.AlertFilter{}); len(got) != 0 {
				t.Fatalf("%s raised %d alerts: %s", name, len(got), got[0].Diff)
			}
		}
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "utm_source=a", false, arbitration), ""))
		got := e.mustCheck(t, ctx, m.ID)
		if got.LastChangedAt == nil || got.ConsecutiveFailures != 0 {
			t.Errorf("after change: %+v", got)
		}
		last := e.mustCheck(t, ctx, m.ID) // unchanged since: nothing more
		alerts := e.alerts(t, ctx, monitor.AlertFilter{})
		if len(alerts) != 1 {
			t.Fatalf("%d alerts, want 1", len(alerts))
		}
		a := alerts[0]
		if a.MonitorID != m.ID || a.URL != m.URL || a.Read || a.Added != 1 || a.Removed != 0 ||
			!strings.Contains(a.Diff, "\n+Any dispute arising from these terms shall be resolved by binding arbitration") ||
			!strings.Contains(a.Diff, "\n You may close your account") {
			t.Errorf("alert %+v\n%s", a, a.Diff)
		}
		if len(a.FindingsAdded) == 0 || a.FindingsAdded[0].Category != "arbitration" || a.FindingsAdded[0].Severity != "bad" || len(a.FindingsRemoved) != 0 {
			t.Errorf("findings added %+v removed %+v", a.FindingsAdded, a.FindingsRemoved)
		}
		// The grade moves with the case that appeared, and says so.
		arb := slices.IndexFunc(a.CasesAdded, func(c app.Case) bool { return c.Category == "arbitration" })
		if arb < 0 || a.CasesAdded[arb].Rating != "bad" || len(a.CasesRemoved) != 0 || a.GradeBefore == "" || a.GradeAfter <= a.GradeBefore {
			t.Errorf("grade %q -> %q, cases added %+v removed %+v", a.GradeBefore, a.GradeAfter, a.CasesAdded, a.CasesRemoved)
		}
		if !strings.HasPrefix(a.Summary, "1 paragraph changed; added: ") || !strings.Contains(a.Summary, "binding arbitration") || !strings.Contains(a.Summary, "(bad)") {
			t.Errorf("summary %q", a.Summary)
		}
		vp, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: m.ID, Limit: ptr(1)})
		if err != nil || len(vp.Versions) != 1 || vp.NextCursor == nil {
			t.Fatalf("versions page 1: %+v %v", vp, err)
		}
		vp2, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: m.ID, Limit: ptr(1), Cursor: *vp.NextCursor})
		if err != nil || len(vp2.Versions) != 1 || vp2.NextCursor != nil || vp2.Versions[0].ContentHash == vp.Versions[0].ContentHash {
			t.Fatalf("versions page 2: %+v %v", vp2, err)
		}
		// The current version was last seen by the last check; the first, by
		// the last check before the change.
		cur, first := vp.Versions[0], vp2.Versions[0]
		if !cur.LastSeenAt.Equal(*last.LastCheckedAt) || !first.LastSeenAt.Before(cur.FirstSeenAt) || !first.LastSeenAt.After(first.FirstSeenAt) {
			t.Errorf("seen: current %+v, first %+v, last check %v", cur, first, last.LastCheckedAt)
		}
		// PATCH marks it read; the unread filter then finds nothing.
		if n, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: []string{a.ID}, Read: new(true)}); n != 1 || err != nil {
			t.Errorf("update: %d %v", n, err)
		}
		if got := e.alerts(t, ctx, monitor.AlertFilter{Unread: true}); len(got) != 0 {
			t.Errorf("unread after read: %d", len(got))
		}
	})
}

// A change that adds more findings than an alert keeps gives an alert of
// exactly MaxAlertFindings of them, the most severe first, and the count of
// the rest, stored (both dialects) and read back; the versions' diff says the
// same.
func TestAlertFindingsAreCapped(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "utm_source=a", false), "")
		// One good finding first, then 120 bad ones (two a group; the
		// paragraph between keeps each group's findings apart).
		extra := []string{`<p>We do not sell your personal information to anyone.</p>`}
		for i := range 60 {
			extra = append(extra, fmt.Sprintf(`<p>Any dispute about order %d shall be resolved by binding arbitration in city %d.</p>
<p>Our office number %d is open on weekdays.</p>
<p>We may terminate your account %d at any time without notice.</p>`, i, i, i, i))
		}
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "utm_source=a", false, extra...), ""))
		e.mustCheck(t, ctx, m.ID)
		alerts := e.alerts(t, ctx, monitor.AlertFilter{})
		if len(alerts) != 1 {
			t.Fatalf("%d alerts, want 1", len(alerts))
		}
		a := alerts[0]
		if len(a.FindingsAdded) != monitor.MaxAlertFindings || a.FindingsAddedOmitted != 121-monitor.MaxAlertFindings ||
			len(a.FindingsRemoved) != 0 || a.FindingsRemovedOmitted != 0 {
			t.Fatalf("%d findings added, %d omitted, %d removed, %d omitted; want %d, %d, 0, 0", len(a.FindingsAdded), a.FindingsAddedOmitted,
				len(a.FindingsRemoved), a.FindingsRemovedOmitted, monitor.MaxAlertFindings, 121-monitor.MaxAlertFindings)
		}
		for _, f := range a.FindingsAdded {
			if f.Severity != "bad" {
				t.Fatalf("kept a %s finding (%s) over a bad one", f.Severity, f.Quote)
			}
		}
		// The diff of the two versions keeps the findings as the alert does.
		vp, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: m.ID, Limit: ptr(2)})
		if err != nil || len(vp.Versions) != 2 {
			t.Fatalf("versions %+v %v", vp, err)
		}
		vd, err := e.Mon.DiffMonitorVersions(ctx, m.ID, vp.Versions[1].ContentHash, vp.Versions[0].ContentHash)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(vd.FindingsAdded, a.FindingsAdded) || vd.FindingsAddedOmitted != a.FindingsAddedOmitted {
			t.Errorf("version diff: %d findings added, %d omitted; want the alert's", len(vd.FindingsAdded), vd.FindingsAddedOmitted)
		}
	})
}

// A 304 answer to the conditional GET counts as unchanged.
func TestMonitorConditionalGet(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), `"v1"`)
		if got := e.mustCheck(t, ctx, m.ID); got.LastError != "" || *got.LastCheckedAt == *m.LastCheckedAt {
			t.Errorf("after 304: %+v", got)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Errorf("304 raised %d alerts", len(a))
		}
	})
}

// oldRules is the extractor as an earlier version read pages: it kept a
// cookie notice.
type oldRules struct{ *extractor.Extractor }

func (oldRules) Version() string { return "0-old" }

func (x oldRules) Extract(raw []byte, ct, u string) (*extractor.Document, error) {
	doc, err := x.Extractor.Extract(raw, ct, u)
	if err == nil {
		doc.Text += "\n\nWe use cookies to improve your experience."
		doc.ContentHash = extractor.ContentHash(doc.Text)
	}
	return doc, err
}

// An extractor upgrade over an unchanged page raises nothing: the stored
// raw page is re-extracted with the new rules before comparing.
func TestMonitorExtractorUpgradeRaisesNothing(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		store := dbtest.Open(t, d)
		old := newMonitorEnv(t, store, apptest.Configure(func(o *app.Options) {
			_, current := apptest.Engines(t)
			o.Extractor = oldRules{current}
		}))
		ctx := old.mustCaller(t, app.TierAdvanced)
		old.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m := old.mustCreate(t, ctx, old.Docs.URL("/terms"))
		// The upgraded process reads the same site.
		upgraded := newMonitorEnv(t, store, apptest.Configure(func(o *app.Options) {
			o.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{old.Docs.Addr()}, Timeout: time.Second})
		}))
		upgraded.mustCheck(t, ctx, m.ID)
		if a := upgraded.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Fatalf("extractor upgrade raised an alert: %s", a[0].Diff)
		}
		// A real change after the upgrade is compared with the new rules' text.
		old.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))
		upgraded.mustCheck(t, ctx, m.ID)
		a := upgraded.alerts(t, ctx, monitor.AlertFilter{})
		if len(a) != 1 || a[0].Removed != 0 || strings.Contains(a[0].Diff, "cookies") {
			t.Errorf("alerts after a real change: %+v", a)
		}
	})
}

// A failing page: the check-now answers the monitor with its error and
// backoff, the scan is given back, no alert; recovery clears the error.
func TestMonitorFailureBacksOff(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), "")
		before := scansUsed(t, e.Svc, ctx)
		e.Docs.Set("/terms", broken)
		for i, wantWait := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute} {
			got := e.mustCheck(t, ctx, m.ID)
			if got.Status() != monitor.MonitorFailing || got.ConsecutiveFailures != i+1 || !strings.Contains(got.LastError, "500") ||
				got.NextCheckAt.Sub(*got.LastCheckedAt) != wantWait {
				t.Errorf("failure %d: %+v", i+1, got)
			}
		}
		if used := scansUsed(t, e.Svc, ctx); used != before {
			t.Errorf("failed checks took %d scans", used-before)
		}
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		if got := e.mustCheck(t, ctx, m.ID); got.Status() != monitor.MonitorActive || got.LastError != "" || got.ConsecutiveFailures != 0 {
			t.Errorf("after recovery: %+v", got)
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Errorf("failures raised %d alerts", len(a))
		}
	})
}

// A page that turns hostile fails its check with the reason, backs off and
// raises nothing: it grows past the size cap, hangs, resets the
// connection, redirects to a private address, or serves an image.
func TestMonitorHostilePages(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, ctx, m := mustWatched(t, d, terms("n1", "3 May 2026", "a=1", false), "")
		for i, c := range []struct {
			name   string
			page   http.Handler
			reason string
		}{
			{"huge", huge, "larger than"}, {"hang", http.HandlerFunc(apptest.Stall), "did not answer"}, {"reset", reset, "could not connect"},
			{"private", private, "not a public internet address"}, {"image", image, "an image"},
		} {
			e.Docs.Handle("/terms", c.page)
			got := e.mustCheck(t, ctx, m.ID)
			if got.Status() != monitor.MonitorFailing || got.ConsecutiveFailures != i+1 || !strings.Contains(got.LastError, c.reason) ||
				!got.NextCheckAt.After(*got.LastCheckedAt) {
				t.Errorf("%s: %+v", c.name, got)
			}
		}
		if a := e.alerts(t, ctx, monitor.AlertFilter{}); len(a) != 0 {
			t.Errorf("hostile pages raised %d alerts", len(a))
		}
	})
}

// Bad input is refused with its code and consumes nothing; creation that
// cannot fetch stores nothing and gives its scan back; the plan caps active
// monitors; another account can neither see, check, update nor delete.
func TestMonitorRules(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		ctx := e.mustCaller(t, app.TierFree)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		url := e.Docs.URL("/terms")
		bad := []struct {
			name string
			call func() error
			want app.Code
		}{
			{"not http", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: "ftp://example.com/terms"})
				return err
			}, app.CodeInvalid},
			{"private address", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: "http://10.0.0.1/terms"})
				return err
			}, app.CodeInvalid},
			{"no url", func() error { _, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{}); return err }, app.CodeInvalid},
			{"interval below min", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, IntervalSeconds: ptr(0)})
				return err
			}, app.CodeInvalid},
			{"interval over 30 days", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, IntervalSeconds: ptr(30*86400 + 1)})
				return err
			}, app.CodeInvalid},
			// Seconds that wrap to 5s (or below zero) once counted in nanoseconds.
			{"interval wrapping to 5s", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, IntervalSeconds: ptr(18_446_744_079)})
				return err
			}, app.CodeInvalid},
			{"interval of the largest int", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, IntervalSeconds: ptr(math.MaxInt)})
				return err
			}, app.CodeInvalid},
			{"interval of the smallest int", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url, IntervalSeconds: ptr(math.MinInt)})
				return err
			}, app.CodeInvalid},
			{"upstream error", func() error {
				_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/broken")})
				return err
			}, app.CodeUpstream},
			{"check id not a UUID", func() error { _, err := e.Mon.CheckMonitor(ctx, "42"); return err }, app.CodeNotFound},
			{"delete unknown", func() error { return e.Mon.DeleteMonitor(ctx, "6f1c1f8e-0000-4000-8000-000000000000") }, app.CodeNotFound},
			{"no ids", func() error {
				_, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: []string{}, Read: new(true)})
				return err
			}, app.CodeInvalid},
			{"101 ids", func() error {
				ids := make([]string, 101)
				for i := range ids {
					ids[i] = fmt.Sprintf("6f1c1f8e-0000-4000-8000-%012d", i)
				}
				_, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: ids, Read: new(true)})
				return err
			}, app.CodeInvalid},
			{"id not a UUID", func() error {
				_, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: []string{"x"}, Read: new(true)})
				return err
			}, app.CodeInvalid},
			{"no read", func() error {
				_, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: []string{"6f1c1f8e-0000-4000-8000-000000000000"}})
				return err
			}, app.CodeInvalid},
			{"limit 0", func() error { _, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{Limit: ptr(0)}); return err }, app.CodeInvalid},
			{"limit 101", func() error { _, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{Limit: ptr(101)}); return err }, app.CodeInvalid},
			{"tampered cursor", func() error {
				_, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{Cursor: "MjAyNi0xMS0yNFQxMDowMDowMFp8bm90LWFuLWlk"})
				return err
			}, app.CodeInvalid},
			{"bad monitorId", func() error { _, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{MonitorID: "x"}); return err }, app.CodeInvalid},
		}
		for _, c := range bad {
			if err := c.call(); app.ErrorCode(err) != c.want {
				t.Errorf("%s: %v, want %s", c.name, err, c.want)
			}
		}
		if used := scansUsed(t, e.Svc, ctx); used != 0 {
			t.Errorf("refused requests took %d scans", used)
		}
		if ms, _ := e.Mon.FindMonitors(ctx); len(ms) != 0 {
			t.Errorf("refused requests stored %d monitors", len(ms))
		}

		// Free: three active monitors; the fourth is refused and consumes nothing.
		var mine []*monitor.Monitor
		for range 3 {
			mine = append(mine, e.mustCreate(t, ctx, url))
		}
		_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: url})
		if ae := app.AsError(err); ae.Code != app.CodeForbidden || ae.Message != "Active monitor limit reached for this plan" || ae.Data["monitorLimit"] != 3 {
			t.Errorf("fourth monitor: %v", err)
		}
		if used := scansUsed(t, e.Svc, ctx); used != 3 {
			t.Errorf("%d scans used, want 3", used)
		}

		other := e.mustCaller(t, app.TierAdvanced)
		if ms, _ := e.Mon.FindMonitors(other); len(ms) != 0 {
			t.Errorf("another account sees %d monitors", len(ms))
		}
		if _, err := e.Mon.CheckMonitor(other, mine[0].ID); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("another account checks: %v", err)
		}
		if _, err := e.Mon.FindMonitorVersions(other, monitor.VersionFilter{MonitorID: mine[0].ID}); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("another account reads versions: %v", err)
		}
		if err := e.Mon.DeleteMonitor(other, mine[0].ID); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("another account deletes: %v", err)
		}
		// Delete frees a place; the deleted monitor is gone from lists and checks.
		if err := e.Mon.DeleteMonitor(ctx, mine[0].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Mon.CheckMonitor(ctx, mine[0].ID); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("check of a deleted monitor: %v", err)
		}
		if ms, _ := e.Mon.FindMonitors(ctx); len(ms) != 2 {
			t.Errorf("%d monitors after delete, want 2", len(ms))
		}
		e.mustCreate(t, ctx, url)
	})
}

// The scheduler (Run, with workers) checks due monitors by itself and sees a change within a
// few seconds at a 1s interval; an alert's other account cannot update it.
func TestSchedulerSeesChange(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d), apptest.Monitoring(func(o *monitor.Options) { o.Workers = 4 }))
		ctx := e.mustCaller(t, app.TierAdvanced)
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false), ""))
		m, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/s"), IntervalSeconds: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		e.Docs.Set("/s", html(terms("n1", "3 May 2026", "a=1", false, arbitration), ""))
		var alerts []monitor.Alert
		for deadline := time.Now().Add(10 * time.Second); len(alerts) == 0 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			alerts = e.alerts(t, ctx, monitor.AlertFilter{MonitorID: m.ID})
		}
		if len(alerts) != 1 || alerts[0].FindingsAdded[0].Category != "arbitration" {
			t.Fatalf("scheduler alerts: %+v", alerts)
		}
		other := e.mustCaller(t, app.TierAdvanced)
		if n, err := e.Mon.UpdateAlerts(other, monitor.AlertUpdate{IDs: []string{alerts[0].ID}, Read: new(true)}); n != 0 || err != nil {
			t.Errorf("another account's update: %d %v", n, err)
		}
		if got := e.alerts(t, other, monitor.AlertFilter{}); len(got) != 0 {
			t.Errorf("another account sees %d alerts", len(got))
		}
	})
}

// A downgrade keeps the monitors beyond the new cap running (and
// checkable) and refuses new ones.
func TestMonitorDowngrade(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newMonitorEnv(t, dbtest.Open(t, d))
		ctx := e.mustCaller(t, app.TierBase)
		e.Docs.Set("/terms", html(terms("n1", "3 May 2026", "a=1", false), ""))
		var ms []*monitor.Monitor
		for range 4 {
			ms = append(ms, e.mustCreate(t, ctx, e.Docs.URL("/terms")))
		}
		p, _ := app.PrincipalFrom(ctx)
		down := *p
		down.Account.Tier = app.TierFree
		ctx = app.WithPrincipal(context.Background(), &down)
		if _, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/terms")}); app.AsError(err).Data["monitorLimit"] != 3 {
			t.Errorf("fifth monitor after the downgrade: %v", err)
		}
		if list, err := e.Mon.FindMonitors(ctx); err != nil || len(list) != 4 {
			t.Errorf("%d monitors after the downgrade, want 4 (%v)", len(list), err)
		}
		e.mustCheck(t, ctx, ms[3].ID)
	})
}
