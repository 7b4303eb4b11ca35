package rest_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

var shortText = map[string]any{"text": "We may change these terms at any time without notice."}

func TestFreeKeyGetsFiveScansThenExact429(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		now := time.Date(2026, 11, 22, 15, 30, 0, 0, time.UTC)
		e.Clock.Set(now)
		tok, _ := e.MustAccount("free@example.com")
		k := e.MustKey(tok)
		midnight := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC).UnixMilli()
		for i := 1; i <= 5; i++ {
			res := e.do("POST", "/api/analyze", k.RawKey, shortText)
			if res.status != http.StatusOK {
				t.Fatalf("scan %d: %d %s", i, res.status, res.body)
			}
			if res.header.Get("RateLimit-Limit") != "5" || res.header.Get("RateLimit-Remaining") != strconv.Itoa(5-i) || res.header.Get("RateLimit-Reset") == "" {
				t.Errorf("scan %d headers: limit %q remaining %q reset %q", i, res.header.Get("RateLimit-Limit"), res.header.Get("RateLimit-Remaining"), res.header.Get("RateLimit-Reset"))
			}
		}
		res := e.do("POST", "/api/analyze", k.RawKey, shortText)
		if res.status != http.StatusTooManyRequests {
			t.Fatalf("sixth scan: %d %s", res.status, res.body)
		}
		m := res.json(t)
		want := map[string]any{"error": "Daily scan limit reached for this API key", "scansRemaining": 0.0, "scansLimit": 5.0, "scansResetsAt": float64(midnight),
			"limit": 5.0, "used": 5.0, "resetsAt": float64(midnight)}
		if h, _ := m["hint"].(string); len(m) != len(want)+1 || !strings.Contains(h, "5 of 5 scans") {
			t.Errorf("429 body %s, want exactly %v", res.body, want)
		}
		for k, v := range want {
			if m[k] != v {
				t.Errorf("429 %s = %v, want %v", k, m[k], v)
			}
		}
		if res.header.Get("Retry-After") == "" || res.header.Get("RateLimit-Remaining") != "0" {
			t.Errorf("429 headers: Retry-After %q RateLimit-Remaining %q", res.header.Get("Retry-After"), res.header.Get("RateLimit-Remaining"))
		}
		// Other scan operations share the pool; monitor-free routes are refused too.
		if res := e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": e.Docs.URL("/terms")}); res.status != http.StatusTooManyRequests {
			t.Errorf("extract after the limit: %d", res.status)
		}
		// A second key of the same account has its own pool.
		if res := e.do("POST", "/api/analyze", e.MustKey(tok).RawKey, shortText); res.status != http.StatusOK {
			t.Errorf("second key: %d", res.status)
		}
		// The next UTC day is a new window.
		e.Clock.Set(time.Date(2026, 11, 23, 0, 0, 1, 0, time.UTC))
		if res := e.do("POST", "/api/analyze", k.RawKey, shortText); res.status != http.StatusOK {
			t.Errorf("after midnight: %d %s", res.status, res.body)
		}
	})
}

// budgetRemaining reads status.<pool>.remaining of keyID from the per-key snapshot.
func budgetRemaining(t *testing.T, e *env, tok, keyID, pool string) float64 {
	t.Helper()
	res := e.do("GET", "/api/developer/usage/per-key", tok, nil)
	for _, k := range res.json(t)["keys"].([]any) {
		k := k.(map[string]any)
		if k["keyId"] == keyID {
			return k["status"].(map[string]any)[pool].(map[string]any)["remaining"].(float64)
		}
	}
	t.Fatalf("key %s not in %s", keyID, res.body)
	return 0
}

func scansRemaining(t *testing.T, e *env, tok, keyID string) float64 {
	t.Helper()
	return budgetRemaining(t, e, tok, keyID, "scans")
}

// Failures give their scan back, except a refusal past a bound of the
// reading (here the text limit), which keeps it.
func TestFailuresGiveTheScanBack(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("refund@example.com")
		k := e.MustKey(tok)
		para := "We may change these terms at any time.\n\n"
		e.Docs.Set("/long", apptest.Page{ContentType: "text/plain", Body: strings.Repeat(para, app.MaxTextChars/len(para)+100)})
		cases := []struct {
			path string
			body any
			want int
		}{
			{"/api/extract", map[string]string{"url": e.Docs.URL("/broken")}, http.StatusBadGateway},
			{"/api/extract", map[string]string{"url": e.Docs.URL("/image")}, http.StatusUnprocessableEntity},
			{"/api/extract", map[string]string{"url": "http://127.0.0.2:9/x"}, http.StatusBadRequest},
			{"/api/extract", map[string]string{"url": "ftp://example.com/x"}, http.StatusBadRequest},
			{"/api/extract", map[string]string{}, http.StatusBadRequest},
			{"/api/analyze", map[string]string{"url": e.Docs.URL("/broken")}, http.StatusBadGateway},
			{"/api/analyze", map[string]string{"url": e.Docs.URL("/image")}, http.StatusUnprocessableEntity},
			{"/api/analyze", map[string]any{"url": "https://example.com", "text": "both"}, http.StatusBadRequest},
			{"/api/analyze", map[string]any{"text": "x", "documentType": "novel"}, http.StatusBadRequest},
			{"/api/analyze", map[string]any{"text": "x", "ai": true}, http.StatusServiceUnavailable},
		}
		for _, c := range cases {
			res := e.do("POST", c.path, k.RawKey, c.body)
			if res.status != c.want {
				t.Errorf("%s %v: %d %s, want %d", c.path, c.body, res.status, res.body, c.want)
			}
			if res.json(t)["error"] == nil {
				t.Errorf("%s %v: no error message", c.path, c.body)
			}
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 5 {
			t.Fatalf("failed requests consumed scans: %v left", got)
		}
		// A refunded failure reports the pool as it is after the refund.
		res := e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": e.Docs.URL("/broken")})
		if res.status != http.StatusBadGateway || res.header.Get("RateLimit-Remaining") != "5" {
			t.Errorf("refunded 502: %d RateLimit-Remaining %q, want 5", res.status, res.header.Get("RateLimit-Remaining"))
		}
		// A page read whole and refused past the text limit keeps its scan:
		// the work was done (docs/api.md, costly documents).
		for _, path := range []string{"/api/extract", "/api/analyze"} {
			if res := e.do("POST", path, k.RawKey, map[string]string{"url": e.Docs.URL("/long")}); res.status != http.StatusUnprocessableEntity {
				t.Errorf("%s of a text over the limit: %d %s, want 422", path, res.status, res.body)
			}
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 3 {
			t.Errorf("two refusals past the text limit: %v scans left, want 3", got)
		}
	})
}

func TestPerKeySnapshot(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		e.Clock.Set(time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC))
		tok, _ := e.MustAccount("snap@example.com")
		k := e.MustKey(tok, "analyze")
		e.do("POST", "/api/analyze", k.RawKey, shortText)
		res := e.do("GET", "/api/developer/usage/per-key", k.RawKey, nil)
		if res.status != http.StatusOK {
			t.Fatalf("%d %s", res.status, res.body)
		}
		m := res.json(t)
		if m["tier"] != "free" {
			t.Errorf("tier %v", m["tier"])
		}
		key := m["keys"].([]any)[0].(map[string]any)
		if key["keyId"] != k.Key.ID || key["keyPrefix"] != k.RawKey[:12] || len(key["scopes"].([]any)) != 1 {
			t.Errorf("key %v", key)
		}
		st := key["status"].(map[string]any)
		scans, ai := st["scans"].(map[string]any), st["ai"].(map[string]any)
		newYear := float64(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
		wantScans := map[string]any{"allowed": true, "remaining": 4.0, "limit": 5.0, "resetsAt": newYear, "windowEnd": newYear}
		wantAI := map[string]any{"allowed": true, "remaining": 5.0, "limit": 5.0, "resetsAt": newYear, "windowEnd": newYear}
		for f, v := range wantScans {
			if scans[f] != v {
				t.Errorf("scans.%s = %v, want %v", f, scans[f], v)
			}
		}
		for f, v := range wantAI {
			if ai[f] != v {
				t.Errorf("ai.%s = %v, want %v", f, ai[f], v)
			}
		}
	})
}

func TestRateLimitResetFollowsTheServiceClock(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	e.Clock.Set(time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)) // an hour to midnight
	tok, _ := e.MustAccount("reset@example.com")
	k := e.MustKey(tok)
	res := e.do("POST", "/api/analyze", k.RawKey, shortText)
	if got := res.header.Get("RateLimit-Reset"); got != "3600" {
		t.Errorf("RateLimit-Reset %q, want 3600", got)
	}
	for range 4 {
		e.do("POST", "/api/analyze", k.RawKey, shortText)
	}
	res = e.do("POST", "/api/analyze", k.RawKey, shortText)
	if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") != "3600" || res.header.Get("RateLimit-Remaining") != "0" {
		t.Errorf("429: %d Retry-After %q", res.status, res.header.Get("Retry-After"))
	}
}

func TestAI429BodyIsExact(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), apptest.WithLLM(apptest.FakeLLM(t, `{"summary":"ok","quotes":[]}`)))
	tok, acct := e.MustAccount("ai429@example.com")
	base := app.TierBase // 25 scans a day, 30 AI a month
	e.Store.UpdateBilling(context.Background(), acct.ID, app.BillingUpdate{Tier: &base})
	k := e.MustKey(tok)
	e.Clock.Set(time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC))
	body := map[string]any{"text": "We may change these terms.", "ai": true}
	for i := range 30 {
		e.Clock.Set(time.Date(2026, 11, 2+i/20, 12, 0, 0, 0, time.UTC))
		if res := e.do("POST", "/api/analyze", k.RawKey, body); res.status != http.StatusOK {
			t.Fatalf("AI call %d: %d %s", i, res.status, res.body)
		}
	}
	res := e.do("POST", "/api/analyze", k.RawKey, body)
	m := res.json(t)
	want := map[string]any{"error": "Monthly AI limit reached for this API key", "aiRemaining": 0.0, "aiLimit": 30.0,
		"aiResetsAt": float64(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixMilli()),
		"limit":      30.0, "used": 30.0, "resetsAt": float64(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixMilli())}
	if h, _ := m["hint"].(string); res.status != http.StatusTooManyRequests || len(m) != len(want)+1 || !strings.Contains(h, "30 of 30 AI summaries") {
		t.Fatalf("%d %s", res.status, res.body)
	}
	for f, v := range want {
		if m[f] != v {
			t.Errorf("%s = %v, want %v", f, m[f], v)
		}
	}
}

// The per-key snapshot carries the account's own pool beside the keys': the
// session's scans count there, not in any key's.
func TestPerKeyShowsTheAccountPool(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("pool@example.com")
		k := e.MustKey(tok)
		for range 3 {
			if res := e.do("POST", "/api/analyze", tok, shortText); res.status != http.StatusOK {
				t.Fatalf("with the session: %d %s", res.status, res.body)
			}
		}
		if res := e.do("POST", "/api/analyze", k.RawKey, shortText); res.status != http.StatusOK {
			t.Fatalf("with the key: %d %s", res.status, res.body)
		}
		for _, bearer := range []string{tok, k.RawKey} {
			snap := e.do("GET", "/api/developer/usage/per-key", bearer, nil).json(t)
			acct := snap["account"].(map[string]any)
			scans := acct["scans"].(map[string]any)
			if scans["remaining"] != 2.0 || scans["limit"] != 5.0 || scans["allowed"] != true || acct["credits"] != 0.0 ||
				acct["ai"].(map[string]any)["limit"] != 5.0 {
				t.Errorf("account pool %v", acct)
			}
			if got := scansRemaining(t, e, bearer, k.Key.ID); got != 4 {
				t.Errorf("the key's own pool: %v remaining, want 4", got)
			}
		}
	})
}
