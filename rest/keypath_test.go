package rest_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/rest"
)

// A single analysis or extraction charges its scan with the key's
// authentication (one statement). A request that fails before the route
// would have charged (a body refused with 400, 413 or 415) gets it back, and
// a key without the route's scope is refused 403 without being charged.
func TestScanChargedWithAuthenticationIsGivenBackUnlessTaken(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		for _, c := range []struct {
			path   string
			body   any
			header []string
			want   int
		}{
			{"/api/analyze", []byte(`{"text":`), nil, http.StatusBadRequest},
			{"/api/analyze", []byte(`{"text":"x","nope":1}`), nil, http.StatusBadRequest},
			{"/api/analyze", []byte(`{"text":"x"}`), []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType},
			{"/api/analyze", []byte(`{"text":"` + strings.Repeat("x", middleware.MaxBody) + `"}`), nil, http.StatusRequestEntityTooLarge},
			{"/api/extract", []byte(`{"url":1}`), nil, http.StatusBadRequest},
		} {
			if res := e.do("POST", c.path, k.RawKey, c.body, c.header...); res.status != c.want {
				t.Errorf("%s %.40s: %d %s, want %d", c.path, c.body, res.status, res.body, c.want)
			}
		}
		if got := e.ScansUsed(k.Key.ID); got != 0 {
			t.Errorf("refused bodies kept %d scans", got)
		}
		monitorOnly := e.MustKey(tok, app.ScopeMonitor)
		for _, path := range []string{"/api/analyze", "/api/extract"} {
			if res := e.do("POST", path, monitorOnly.RawKey, shortText); res.status != http.StatusForbidden {
				t.Errorf("%s without the scope: %d %s", path, res.status, res.body)
			}
		}
		if got := e.ScansUsed(monitorOnly.Key.ID); got != 0 {
			t.Errorf("a key without the scope was charged %d scans", got)
		}
		// Taken by the route: kept, and reported in the headers.
		res := e.do("POST", "/api/analyze", k.RawKey, shortText)
		if res.status != http.StatusOK || res.header.Get("RateLimit-Remaining") != "4" || e.ScansUsed(k.Key.ID) != 1 {
			t.Errorf("admitted: %d RateLimit-Remaining %q, used %d", res.status, res.header.Get("RateLimit-Remaining"), e.ScansUsed(k.Key.ID))
		}
	})
}

// The refused path (authentication and the refused charge in one
// statement) answers the contract's 429 with every RateLimit field right:
// the plan's limit, nothing remaining, the seconds to the next UTC day, and
// Retry-After the same; on analyze and extract alike, and before the body
// is read.
func TestRefusedPathRateLimitHeaders(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		e.Clock.Set(time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		for range 5 {
			if res := e.do("POST", "/api/analyze", k.RawKey, shortText); res.status != http.StatusOK {
				t.Fatalf("%d %s", res.status, res.body)
			}
		}
		for _, c := range []struct {
			path string
			body any
		}{
			{"/api/analyze", shortText},
			{"/api/extract", map[string]string{"url": e.Docs.URL("/terms")}},
			// Spent is spent: the body is not read, so one that would be a
			// 400 gets the 429 too, and nothing is charged for either.
			{"/api/analyze", map[string]string{"text": "x", "unknown": "field"}},
			{"/api/extract", map[string]string{"url": "http://10.0.0.1/terms"}},
		} {
			res := e.do("POST", c.path, k.RawKey, c.body)
			if res.status != http.StatusTooManyRequests {
				t.Fatalf("%s: %d %s", c.path, res.status, res.body)
			}
			for h, want := range map[string]string{"RateLimit-Limit": "5", "RateLimit-Remaining": "0", "RateLimit-Reset": "3600", "Retry-After": "3600"} {
				if got := res.header.Get(h); got != want {
					t.Errorf("%s %s = %q, want %q", c.path, h, got, want)
				}
			}
			if m := res.json(t); m["scansRemaining"] != 0.0 || m["scansLimit"] != 5.0 {
				t.Errorf("%s body %s", c.path, res.body)
			}
		}
		if got := e.ScansUsed(k.Key.ID); got != 5 {
			t.Errorf("used %d, want 5", got)
		}
	})
}

// Nothing caches a verified key: a key revoked through one replica is
// refused by every other on its next request, under load. Replica B serves
// the key list and analyses with the key from 16 clients while replica A
// revokes it; every request B begins after the revocation returned is 401.
func TestRevokedKeyRefusedOnEveryReplicaUnderLoad(t *testing.T) {
	store := dbtest.Open(t, dbtest.Postgres)
	a, b := newEnvOn(t, store), newEnvOn(t, store)
	tok, _ := a.MustAccount("")
	k := a.MustKey(tok)
	var (
		revokedAt   atomic.Int64 // UnixNano once the revocation returned
		stop        atomic.Bool
		wg          sync.WaitGroup
		mu          sync.Mutex
		late, after int // requests begun after the revocation: admitted, all
	)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				begun := time.Now().UnixNano()
				var req *http.Request
				if i%2 == 0 {
					req, _ = http.NewRequest("GET", b.srv.URL+"/api/developer/keys", nil)
				} else {
					req, _ = http.NewRequest("POST", b.srv.URL+"/api/analyze", bytes.NewReader([]byte(`{"text":"We may change these terms."}`)))
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Authorization", "Bearer "+k.RawKey)
				res, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				res.Body.Close()
				if r := revokedAt.Load(); r != 0 && begun > r {
					mu.Lock()
					after++
					if res.StatusCode != http.StatusUnauthorized {
						late++
					}
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	if res := a.do("DELETE", "/api/developer/keys/"+k.Key.ID, tok, nil); res.status != http.StatusOK {
		t.Fatalf("revoke: %d %s", res.status, res.body)
	}
	revokedAt.Store(time.Now().UnixNano())
	time.Sleep(300 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if after == 0 {
		t.Fatal("no request began after the revocation")
	}
	if late > 0 {
		t.Errorf("%d of %d requests begun after the revocation were served", late, after)
	}
}

// A request whose client went away is logged at INFO as cancelled, never
// as an internal error.
func TestCancelledRequestIsNotAnInternalError(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	tok, _ := e.MustAccount("")
	k := e.MustKey(tok)
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mux := http.NewServeMux()
	rest.Register(mux, rest.Options{Service: e.Svc, Monitors: e.Mon, Billing: e.Billing, Logger: log, Ready: func(context.Context) error { return nil }})
	h := middleware.Observe(log, middleware.NewMetrics(prometheus.NewRegistry()), mux)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client closed its connection before the key was looked up
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/developer/keys", nil)
	req.Header.Set("Authorization", "Bearer "+k.RawKey)
	h.ServeHTTP(httptest.NewRecorder(), req)
	out := logs.String()
	if strings.Contains(out, "level=ERROR") || !strings.Contains(out, `level=INFO msg="request cancelled by the client"`) {
		t.Errorf("logs:\n%s", out)
	}
}
