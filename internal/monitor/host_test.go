package monitor_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// requestLog records when each request reached the loopback site.
type requestLog struct {
	mu    sync.Mutex
	times []time.Time
	paths []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.times = append(l.times, time.Now())
		l.paths = append(l.paths, r.URL.Path)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) reset() {
	l.mu.Lock()
	l.times, l.paths = nil, nil
	l.mu.Unlock()
}

func (l *requestLog) snapshot() ([]time.Time, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.times), slices.Clone(l.paths)
}

// minGap is the shortest time between two requests in the log.
func (l *requestLog) minGap() time.Duration {
	times, _ := l.snapshot()
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	gap := time.Duration(1 << 62)
	for i := 1; i < len(times); i++ {
		gap = min(gap, times[i].Sub(times[i-1]))
	}
	return gap
}

func politeEnv(t *testing.T, store apptest.Store, hostInterval time.Duration, opts ...apptest.Option) *monitorEnv {
	t.Helper()
	return newMonitorEnv(t, store, append(opts, apptest.Monitoring(func(o *monitor.Options) { o.HostInterval = hostInterval }))...)
}

// Two services on one database (two replicas) checking pages of one host
// at once ask it at most once per host interval together, robots.txt
// included.
func TestPolitenessSharedByReplicas(t *testing.T) {
	const interval = 250 * time.Millisecond
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			store := dbtest.Open(t, d)
			a := politeEnv(t, store, interval)
			var log requestLog
			paths := []string{"/a", "/b", "/c", "/d", "/e", "/f"}
			for _, p := range append(slices.Clone(paths), "/robots.txt") {
				a.Docs.Handle(p, log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			}
			b := politeEnv(t, store, interval, apptest.Configure(func(o *app.Options) {
				o.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{a.Docs.Addr()}, Timeout: 3 * time.Second})
			}))
			ctx := a.mustCaller(t, app.TierAdvanced)
			var ms []*monitor.Monitor
			for _, p := range paths {
				ms = append(ms, a.mustCreate(t, ctx, a.Docs.URL(p)))
			}
			log.reset() // creation reads each page once, as a user's request
			var wg sync.WaitGroup
			for i, m := range ms {
				svc := a.Mon
				if i%2 == 1 {
					svc = b.Mon
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _ = svc.CheckMonitor(ctx, m.ID) // a busy host may refuse one: counted below
				}()
			}
			wg.Wait()
			_, got := log.snapshot()
			if len(got) < 4 {
				t.Fatalf("only %d requests reached the site: %v", len(got), got)
			}
			// Each process read robots.txt once: the first before its
			// monitors' first requests (at creation), the second here.
			if n := strings.Count(strings.Join(got, " "), "/robots.txt"); n != 1 {
				t.Errorf("robots.txt read %d times here, want once (by the second process): %v", n, got)
			}
			// Milliseconds are the schedule's unit: a gap may look 1ms short.
			if gap := log.minGap(); gap < interval-2*time.Millisecond {
				t.Errorf("two requests %v apart, want at least %v (%v)", gap, interval, got)
			}
		})
	}
}

// robots.txt is read before the first request to a page: creating a monitor
// on a disallowed page is refused (422, errorCode robots, the rule that
// matched) without requesting it, spending a scan or creating the monitor,
// while an allowed page of the same host is created. A page disallowed
// later fails its checks as robots, unrequested, and such a check-now is
// free (robots.txt is read once a day per site). robots.txt's Crawl-delay spaces every request.
func TestRobotsTxt(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			store := dbtest.Open(t, d)
			e := politeEnv(t, store, 10*time.Millisecond)
			ctx := e.mustCaller(t, app.TierAdvanced)
			var log requestLog
			robots := func(disallow string) {
				e.Docs.Handle("/robots.txt", log.wrap(apptest.Page{ContentType: "text/plain",
					Body: "User-agent: otherbot\nDisallow: /\n\nUser-agent: ClauseWatch\nDisallow: " + disallow + "\nAllow: /private/terms$\nCrawl-delay: 1.2\n"}))
			}
			robots("/private")
			e.Docs.Handle("/private/policy", log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			e.Docs.Handle("/private/terms", log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			e.Docs.Handle("/public/terms", log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			used := scansUsed(t, e.Svc, ctx)

			_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: e.Docs.URL("/private/policy")})
			if ae := app.AsError(err); ae.Code != app.CodeUnreadable || ae.Data["errorCode"] != "robots" || ae.Data["rule"] != "Disallow: /private" ||
				!strings.Contains(ae.Message, "robots.txt") {
				t.Errorf("monitor on a disallowed page: %v %v, want unreadable with errorCode robots and its rule", err, ae.Data)
			}
			if n := e.Docs.Hits("/private/policy"); n != 0 {
				t.Errorf("the disallowed page was requested %d times", n)
			}
			if ms, _ := e.Mon.FindMonitors(ctx); len(ms) != 0 || scansUsed(t, e.Svc, ctx) != used {
				t.Errorf("the refusal left %d monitors and took %d scans", len(ms), scansUsed(t, e.Svc, ctx)-used)
			}
			allowed := e.mustCreate(t, ctx, e.Docs.URL("/private/terms"))
			later := e.mustCreate(t, ctx, e.Docs.URL("/public/terms"))
			log.reset()

			for range 2 {
				if m := e.mustCheck(t, ctx, allowed.ID); m.LastErrorCode != "" {
					t.Errorf("allowed page failed: %q %q", m.LastErrorCode, m.LastError)
				}
			}
			_, paths := log.snapshot()
			if want := []string{"/private/terms", "/private/terms"}; !slices.Equal(paths, want) {
				t.Fatalf("requests %v, want %v", paths, want)
			}
			if gap := log.minGap(); gap < 1200*time.Millisecond-2*time.Millisecond {
				t.Errorf("requests %v apart under a 1.2s Crawl-delay", gap)
			}

			// The site disallows /public too, as another process (whose
			// cache does not hold robots.txt yet) reads it.
			robots("/p")
			other := politeEnv(t, store, 10*time.Millisecond, apptest.Configure(func(o *app.Options) {
				o.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{e.Docs.Addr()}, Timeout: 3 * time.Second})
			}))
			used = scansUsed(t, e.Svc, ctx)
			m, err := other.Mon.CheckMonitor(ctx, later.ID)
			if err != nil {
				t.Fatal(err)
			}
			if m.LastErrorCode != "robots" || !strings.Contains(m.LastError, "robots.txt") {
				t.Errorf("page disallowed later: code %q, error %q", m.LastErrorCode, m.LastError)
			}
			if n := e.Docs.Hits("/public/terms"); n != 1 { // the creation's read only
				t.Errorf("a disallowed page was requested %d times, want 1 (at creation)", n)
			}
			if n := scansUsed(t, e.Svc, ctx); n != used {
				t.Errorf("a check-now refused by robots.txt took %d scans", n-used)
			}
		})
	}
}

// A 429 or 503's Retry-After holds the host for every process: a check
// before it passes is refused as busy without a request, and one a moment
// later waits for it.
func TestRetryAfter(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			e := politeEnv(t, dbtest.Open(t, d), 10*time.Millisecond)
			ctx := e.mustCaller(t, app.TierAdvanced)
			var log requestLog
			e.Docs.Handle("/terms", log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			e.Docs.Handle("/busy", log.wrap(html(terms("n", "1 May 2026", "x", false), "")))
			m := e.mustCreate(t, ctx, e.Docs.URL("/terms"))
			busy := e.mustCreate(t, ctx, e.Docs.URL("/busy"))

			e.Docs.Handle("/terms", log.wrap(apptest.Page{Status: 503, ContentType: "text/plain", Body: "maintenance", Header: http.Header{"Retry-After": {"2"}}}))
			log.reset()
			if got := e.mustCheck(t, ctx, m.ID); got.LastErrorCode != "http_5xx" {
				t.Fatalf("code %q, want http_5xx (%s)", got.LastErrorCode, got.LastError)
			}
			if got := e.mustCheck(t, ctx, busy.ID); got.LastErrorCode != "" {
				t.Fatalf("the next check failed: %q %s", got.LastErrorCode, got.LastError)
			}
			times, paths := log.snapshot()
			if !slices.Equal(paths, []string{"/terms", "/busy"}) { // robots.txt is not logged here
				t.Fatalf("requests %v", paths)
			}
			if gap := times[1].Sub(times[0]); gap < 2*time.Second-2*time.Millisecond {
				t.Errorf("asked again %v after Retry-After: 2", gap)
			}

			e.Docs.Handle("/terms", log.wrap(apptest.Page{Status: 429, ContentType: "text/plain", Body: "slow down", Header: http.Header{"Retry-After": {"3600"}}}))
			if got := e.mustCheck(t, ctx, m.ID); got.LastErrorCode != "http_429" {
				t.Fatalf("code %q, want http_429", got.LastErrorCode)
			}
			_, before := log.snapshot()
			if _, err := e.Mon.CheckMonitor(ctx, busy.ID); app.ErrorCode(err) != app.CodeConflict {
				t.Errorf("a check an hour early: %v, want conflict", err)
			}
			if _, after := log.snapshot(); len(after) != len(before) {
				t.Errorf("the host was asked during its Retry-After: %v", after[len(before):])
			}
		})
	}
}

// Each failure a monitor's check can meet on a loopback page is recorded
// with its code (and its bot protection), and success clears them.
func TestCheckFailureCodes(t *testing.T) {
	cfChallenge := apptest.Page{Status: 403, ContentType: "text/html; charset=UTF-8",
		Header: http.Header{"Cf-Mitigated": {"challenge"}, "Server": {"cloudflare"}, "Cf-Ray": {"8f0c1d2e3f4a5b6c-AMS"}},
		Body:   `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:'managed'};</script><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f0c"></script></body></html>`}
	akamai := apptest.Page{Status: 403, ContentType: "text/html", Header: http.Header{"Server": {"AkamaiGHost"}},
		Body: "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>You don't have permission to access this server.<P>Reference #18.7a1d2c17.1718409600.3f9b21e</BODY></HTML>"}
	dataDome := apptest.Page{Status: 403, ContentType: "text/html", Header: http.Header{"X-Datadome": {"protected"}},
		Body: `<html><body><script>var dd={'host':'geo.captcha-delivery.com'}</script><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>`}
	collapsed := html(`<!doctype html><html><head><title>Example</title></head><body><main><p>Please enable JavaScript to view this page.</p></main></body></html>`, "")
	notLegal := html(`<!doctype html><html><head><title>Example</title></head><body><main><h1>Our recipes</h1>`+
		strings.Repeat(`<p>Mix the flour with water and a pinch of salt, knead it for ten minutes, let it rest and bake it until golden brown.</p>`, 6)+`</main></body></html>`, "")
	long := terms("n", "1 May 2026", "x", false, arbitration,
		`<p>We collect the information you give us when you create an account, and we keep it as long as your account stays open, unless the law asks us to keep it longer.</p>`)
	tests := []struct {
		name     string
		page     http.Handler
		code, by string
	}{
		{"403", apptest.Page{Status: 403, ContentType: "text/html", Body: "<h1>Forbidden</h1>"}, "http_403", ""},
		{"404", apptest.Page{Status: 404, ContentType: "text/html", Body: "<h1>Not found</h1>"}, "http_404", ""},
		{"410", apptest.Page{Status: 410, ContentType: "text/html", Body: "<h1>Gone</h1>"}, "http_410", ""},
		{"500", broken, "http_5xx", ""},
		{"cloudflare", cfChallenge, "blocked", "cloudflare"},
		{"akamai", akamai, "blocked", "akamai"},
		{"datadome", dataDome, "blocked", "datadome"},
		{"other bot protection", apptest.Page{Status: 403, ContentType: "text/html", Body: `<html><body>Request unsuccessful. Incapsula incident ID: 1-2</body></html>`}, "blocked", "unknown"},
		{"image", image, "not_a_document", ""},
		{"huge", huge, "too_large", ""},
		{"reset", reset, "connect", ""},
		{"text collapsed", collapsed, "structure_changed", ""},
		{"no longer a legal text", notLegal, "structure_changed", ""},
	}
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			e := politeEnv(t, dbtest.Open(t, d), -1)
			ctx := e.mustCaller(t, app.TierAdvanced)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					path := "/" + strings.ReplaceAll(tt.name, " ", "-")
					e.Docs.Set(path, html(long, ""))
					m := e.mustCreate(t, ctx, e.Docs.URL(path))
					e.Docs.Handle(path, tt.page)
					got := e.mustCheck(t, ctx, m.ID)
					if got.LastErrorCode != tt.code || got.BlockedBy != tt.by || got.LastError == "" {
						t.Errorf("code %q blockedBy %q (%s), want %q %q", got.LastErrorCode, got.BlockedBy, got.LastError, tt.code, tt.by)
					}
					if got.ContentHash != m.ContentHash || len(e.alerts(t, ctx, monitor.AlertFilter{MonitorID: m.ID})) != 0 {
						t.Errorf("a failure changed the version or raised an alert")
					}
					e.Docs.Set(path, html(long, ""))
					if got := e.mustCheck(t, ctx, m.ID); got.LastErrorCode != "" || got.BlockedBy != "" || got.LastError != "" {
						t.Errorf("a success kept the failure: %q %q %q", got.LastErrorCode, got.BlockedBy, got.LastError)
					}
				})
			}
		})
	}
}

// One host however its URL spells it: the politeness schedule and the
// robots.txt cache are kept per host, so a respelling must not buy a
// second turn or a second robots.txt.
func TestHostSpellingsShareState(t *testing.T) {
	for _, u := range []string{"https://Example.com./a", "https://example.com:443/b", "https://EXAMPLE.COM/c"} {
		if got := monitor.HostKey(u); got != "example.com" {
			t.Errorf("HostKey(%q) = %q, want example.com", u, got)
		}
		if got := monitor.OriginOf(u); got != "https://example.com" {
			t.Errorf("OriginOf(%q) = %q, want https://example.com", u, got)
		}
	}
	if a, b := monitor.HostKey("https://example.com:8443/"), monitor.HostKey("https://example.com/"); a == b {
		t.Errorf("another port is another host: both %q", a)
	}
}
