package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

func TestUsageAgreesWithRequests(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("usage@example.com")
		var k app.CreatedKey
		e.do("POST", "/api/developer/keys", tok, map[string]any{"name": "usage"}).decode(t, &k) // 201
		e.do("GET", "/api/developer/keys", k.RawKey, nil)                                       // 200
		e.do("POST", "/api/analyze", k.RawKey, shortText)                                       // 200
		e.do("POST", "/api/analyze", k.RawKey, map[string]any{"nope": 1})                       // 400
		e.do("POST", "/api/extract", k.RawKey, map[string]string{"url": "ftp://x"})             // 400
		e.Flush()
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

// Caller input with NUL bytes can neither stop usage recording nor fail an analysis.
func TestNULInputIsHarmless(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.MustAccount("nul@example.com")
		var k app.CreatedKey
		e.do("POST", "/api/developer/keys", tok, map[string]any{"name": "nul"}).decode(t, &k)
		if res := e.do("DELETE", "/api/developer/keys/%00", k.RawKey, nil); res.status != http.StatusNotFound {
			t.Fatalf("NUL id: %d", res.status)
		}
		res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": "We may sell\u0000 your data.", "title": "a\u0000b"})
		if res.status != http.StatusOK {
			t.Fatalf("NUL text: %d %s", res.status, res.body)
		}
		e.Flush() // a NUL in the recorded path must not fail the batch
		st := e.do("GET", "/api/developer/usage?days=1", tok, nil).json(t)["stats"].(map[string]any)
		if st["totalRequests"].(float64) < 3 || len(st["recentErrors"].([]any)) != 1 {
			t.Errorf("usage after NUL input: %v", st)
		}
	})
}
