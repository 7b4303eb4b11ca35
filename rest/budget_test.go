package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
)

var shortText = map[string]any{"text": "We may change these terms at any time without notice."}

func TestFreeKeyGetsFiveScansThenExact429(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		now := time.Date(2026, 11, 22, 15, 30, 0, 0, time.UTC)
		e.setClock(now)
		tok, _ := e.mustAccount("free@example.com")
		k := e.mustKey(tok)
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
		want := map[string]any{"error": "Daily scan limit reached for this API key", "scansRemaining": 0.0, "scansLimit": 5.0, "scansResetsAt": float64(midnight)}
		if len(m) != len(want) {
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
		if res := e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": e.docs.URL + "/terms"}); res.status != http.StatusTooManyRequests {
			t.Errorf("extract after the limit: %d", res.status)
		}
		// A second key of the same account has its own pool.
		if res := e.do("POST", "/api/analyze", e.mustKey(tok).RawKey, shortText); res.status != http.StatusOK {
			t.Errorf("second key: %d", res.status)
		}
		// The next UTC day is a new window.
		e.setClock(time.Date(2026, 11, 23, 0, 0, 1, 0, time.UTC))
		if res := e.do("POST", "/api/analyze", k.RawKey, shortText); res.status != http.StatusOK {
			t.Errorf("after midnight: %d %s", res.status, res.body)
		}
	})
}

// concurrentScans fires n analyze requests at once, spread over envs, and
// counts the admitted ones.
func concurrentScans(t *testing.T, envs []*env, raw string, n int) (ok, limited int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := envs[i%len(envs)].do("POST", "/api/analyze", raw, shortText)
			mu.Lock()
			defer mu.Unlock()
			switch res.status {
			case http.StatusOK:
				ok++
			case http.StatusTooManyRequests:
				limited++
			default:
				t.Errorf("unexpected %d %s", res.status, res.body)
			}
		}()
	}
	wg.Wait()
	return ok, limited
}

func TestConcurrentScansAdmitExactlyTheBudget(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("race@example.com")
		k := e.mustKey(tok)
		if ok, limited := concurrentScans(t, []*env{e}, k.RawKey, 50); ok != 5 || limited != 45 {
			t.Fatalf("50 concurrent scans on a budget of 5: %d admitted, %d limited", ok, limited)
		}
	})
}

func TestConcurrentScansAcrossTwoProcesses(t *testing.T) {
	a := newEnvOn(t, dbtest.Open(t, dbtest.Postgres))
	b := newEnvOn(t, dbtest.Open(t, dbtest.Postgres))
	tok, _ := a.mustAccount("race2@example.com")
	k := a.mustKey(tok)
	if ok, limited := concurrentScans(t, []*env{a, b}, k.RawKey, 50); ok != 5 || limited != 45 {
		t.Fatalf("50 scans over two processes: %d admitted, %d limited", ok, limited)
	}
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

func TestBatchAllOrNothing(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("batch@example.com")
		k := e.mustKey(tok)
		items := func(n int) map[string]any {
			list := make([]any, n)
			for i := range list {
				list[i] = map[string]any{"text": fmt.Sprintf("Clause %d: we may terminate your account at any time.", i)}
			}
			return map[string]any{"items": list}
		}
		for _, n := range []int{0, 6} {
			if res := e.do("POST", "/api/analyze/batch", k.RawKey, items(n)); res.status != http.StatusBadRequest {
				t.Errorf("batch of %d: %d %s, want 400", n, res.status, res.body)
			}
		}
		bad := map[string]any{"items": []any{map[string]any{"text": "x"}, map[string]any{"url": "https://example.com", "text": "both"}}}
		if res := e.do("POST", "/api/analyze/batch", k.RawKey, bad); res.status != http.StatusBadRequest ||
			!strings.Contains(string(res.body), `"details":[{"field":"items[1].url","message":"exactly one of url and text is required"}]`) {
			t.Errorf("batch with an invalid item: %d %s, want 400 naming items[1].url", res.status, res.body)
		}
		private := map[string]any{"items": []any{map[string]any{"text": "x"}, map[string]any{"text": "y"}, map[string]any{"url": "http://10.0.0.1/terms"}}}
		if res := e.do("POST", "/api/analyze/batch", k.RawKey, private); res.status != http.StatusBadRequest ||
			!strings.Contains(string(res.body), `"field":"items[2].url"`) {
			t.Errorf("batch with a private URL: %d %s, want 400 naming items[2].url", res.status, res.body)
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 5 {
			t.Fatalf("invalid batches consumed: %v left", got)
		}
		res := e.do("POST", "/api/analyze/batch", k.RawKey, items(2))
		if res.status != http.StatusOK {
			t.Fatalf("batch of 2: %d %s", res.status, res.body)
		}
		results := res.json(t)["results"].([]any)
		for i, r := range results {
			r := r.(map[string]any)
			if r["index"].(float64) != float64(i) || r["ok"] != true || r["analysis"] == nil {
				t.Errorf("result %d: %v", i, r)
			}
		}
		// 3 left: a batch of 4 is refused whole and takes nothing.
		if res := e.do("POST", "/api/analyze/batch", k.RawKey, items(4)); res.status != http.StatusTooManyRequests {
			t.Fatalf("batch of 4 with 3 left: %d %s", res.status, res.body)
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 3 {
			t.Fatalf("after refused batch: %v left, want 3", got)
		}
		// One failing item gives its scan back; the batch still answers 200.
		mixed := map[string]any{"items": []any{map[string]any{"text": "We may sell your data."}, map[string]any{"url": e.docs.URL + "/broken"}}}
		res = e.do("POST", "/api/analyze/batch", k.RawKey, mixed)
		if res.status != http.StatusOK {
			t.Fatalf("mixed batch: %d %s", res.status, res.body)
		}
		results = res.json(t)["results"].([]any)
		if results[0].(map[string]any)["ok"] != true || results[1].(map[string]any)["ok"] != false || results[1].(map[string]any)["error"] == nil {
			t.Errorf("mixed results %v", results)
		}
		if got := scansRemaining(t, e, tok, k.Key.ID); got != 2 {
			t.Errorf("after mixed batch: %v left, want 2", got)
		}
	})
}

func TestFailuresGiveTheScanBack(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("refund@example.com")
		k := e.mustKey(tok)
		cases := []struct {
			path string
			body any
			want int
		}{
			{"/api/extract", map[string]string{"url": e.docs.URL + "/broken"}, http.StatusBadGateway},
			{"/api/extract", map[string]string{"url": e.docs.URL + "/image"}, http.StatusUnprocessableEntity},
			{"/api/extract", map[string]string{"url": "http://127.0.0.2:9/x"}, http.StatusBadRequest},
			{"/api/extract", map[string]string{"url": "ftp://example.com/x"}, http.StatusBadRequest},
			{"/api/extract", map[string]string{}, http.StatusBadRequest},
			{"/api/analyze", map[string]string{"url": e.docs.URL + "/broken"}, http.StatusBadGateway},
			{"/api/analyze", map[string]string{"url": e.docs.URL + "/image"}, http.StatusUnprocessableEntity},
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
		res := e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": e.docs.URL + "/broken"})
		if res.status != http.StatusBadGateway || res.header.Get("RateLimit-Remaining") != "5" {
			t.Errorf("refunded 502: %d RateLimit-Remaining %q, want 5", res.status, res.header.Get("RateLimit-Remaining"))
		}
	})
}

func TestPerKeySnapshot(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		e.setClock(time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC))
		tok, _ := e.mustAccount("snap@example.com")
		k := e.mustKey(tok, "analyze")
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

func TestUsageAgreesWithRequests(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("usage@example.com")
		k := e.mustKey(tok)
		e.do("GET", "/api/developer/keys", k.RawKey, nil)                           // 200
		e.do("POST", "/api/analyze", k.RawKey, shortText)                           // 200
		e.do("POST", "/api/analyze", k.RawKey, map[string]any{"nope": 1})           // 400
		e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": "ftp://x"}) // 400
		if err := e.svc.FlushUsage(t.Context()); err != nil {
			t.Fatal(err)
		}
		res := e.do("GET", "/api/developer/usage?days=7", k.RawKey, nil)
		if res.status != http.StatusOK {
			t.Fatalf("%d %s", res.status, res.body)
		}
		st := res.json(t)["stats"].(map[string]any)
		// The session's key creation is counted too: 5 requests, 2 errors.
		if st["totalRequests"] != 5.0 || st["successCount"] != 3.0 || st["errorCount"] != 2.0 || st["successRate"] != 60.0 || st["errorRate"] != 40.0 {
			t.Errorf("stats %v", st)
		}
		days := st["dailyRequests"].([]any)
		if len(days) != 7 || days[6].(map[string]any)["date"] != time.Now().UTC().Format(time.DateOnly) || days[6].(map[string]any)["count"] != 5.0 || days[0].(map[string]any)["count"] != 0.0 {
			t.Errorf("dailyRequests %v", days)
		}
		errs := st["recentErrors"].([]any)
		if len(errs) != 2 {
			t.Fatalf("recentErrors %v", errs)
		}
		newest := errs[0].(map[string]any)
		if newest["path"] != "/api/extract" || newest["status"] != 400.0 || newest["keyPrefix"] != k.RawKey[:12] || newest["error"] == "" || newest["method"] != "POST" {
			t.Errorf("newest error %v", newest)
		}
		for _, q := range []string{"0", "91", "x"} {
			if res := e.do("GET", "/api/developer/usage?days="+q, tok, nil); res.status != http.StatusBadRequest {
				t.Errorf("days=%s: %d", q, res.status)
			}
		}
	})
}
