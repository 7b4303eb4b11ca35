package rest_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

var stamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// newMonitorEnv is an env and the URL of its document server's /terms.
func newMonitorEnv(t *testing.T, d dbtest.Dialect) (*env, string) {
	e := newEnv(t, d)
	return e, e.Docs.URL("/terms")
}

// The monitor endpoints as a new user meets them: create, list, a changed
// page checked now raises one alert, PATCH marks it read, DELETE stops the
// monitor and keeps its alert.
func TestMonitorScenario(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, url := newMonitorEnv(t, d)
		tok, _ := e.MustAccount("monitor@example.com")
		key := e.MustKey(tok, "monitor").RawKey

		res := e.do("POST", "/api/monitor", key, map[string]any{"url": url, "name": "Example terms"})
		if res.status != http.StatusCreated || res.header.Get("RateLimit-Remaining") != "4" {
			t.Fatalf("create: %d %s %v", res.status, res.body, res.header)
		}
		m := res.json(t)
		if m["url"] != url || m["name"] != "Example terms" || m["intervalSeconds"] != 86400.0 || m["status"] != "active" ||
			m["lastChangedAt"] != nil || m["lastError"] != nil || m["consecutiveFailures"] != 0.0 || m["lastErrorCode"] != nil || m["blockedBy"] != nil || m["alertOn"] != "any" || len(m) != 14 {
			t.Errorf("monitor %s", res.body)
		}
		for _, f := range []string{"createdAt", "lastCheckedAt", "nextCheckAt"} {
			if s, _ := m[f].(string); !stamp.MatchString(s) {
				t.Errorf("%s = %v", f, m[f])
			}
		}
		id := m["id"].(string)
		if list := e.do("GET", "/api/monitor", key, nil).json(t)["monitors"].([]any); len(list) != 1 || list[0].(map[string]any)["id"] != id {
			t.Errorf("list %v", list)
		}

		changed := strings.Replace(apptest.TermsPage, "</main>", "<p>You must pay a cancellation fee of 100 dollars when you leave.</p>\n</main>", 1)
		changed = strings.Replace(changed, "<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>\n", "", 1)
		e.Docs.Set("/terms", apptest.Page{ContentType: "text/html; charset=utf-8", Body: changed})
		res = e.do("POST", "/api/monitor/check?id="+id, key, nil)
		if res.status != http.StatusOK || res.json(t)["lastChangedAt"] == nil {
			t.Fatalf("check: %d %s", res.status, res.body)
		}
		res = e.do("GET", "/api/monitor/alerts?unread=true&monitorId="+id+"&limit=5", key, nil)
		var alerts struct {
			Alerts []struct {
				ID, MonitorID, URL, DetectedAt, Summary, Diff string
				Read                                          bool
				Added, Removed                                int
				FindingsAdded, FindingsRemoved                []map[string]string
			}
			NextCursor *string
		}
		res.decode(t, &alerts)
		if res.status != http.StatusOK || len(alerts.Alerts) != 1 || alerts.NextCursor != nil {
			t.Fatalf("alerts: %d %s", res.status, res.body)
		}
		a := alerts.Alerts[0]
		if a.MonitorID != id || a.URL != url || a.Read || !stamp.MatchString(a.DetectedAt) || a.Added != 1 || a.Removed != 1 ||
			!strings.Contains(a.Diff, "\n-Any dispute shall be resolved by binding arbitration") || len(a.FindingsRemoved) == 0 ||
			a.FindingsRemoved[0]["category"] != "arbitration" || !strings.Contains(a.Summary, "removed: ") {
			t.Errorf("alert %s", res.body)
		}
		if res := e.do("PATCH", "/api/monitor/alerts", key, map[string]any{"ids": []string{a.ID}, "read": true}); res.status != 200 || string(res.body) != "{\"updated\":1}\n" {
			t.Errorf("patch: %d %s", res.status, res.body)
		}
		if n := len(e.do("GET", "/api/monitor/alerts?unread=true", key, nil).json(t)["alerts"].([]any)); n != 0 {
			t.Errorf("%d unread after PATCH", n)
		}
		if res := e.do("DELETE", "/api/monitor?id="+id, key, nil); res.status != 200 || string(res.body) != "{\"deleted\":true}\n" {
			t.Errorf("delete: %d %s", res.status, res.body)
		}
		if res := e.do("DELETE", "/api/monitor?id="+id, key, nil); res.status != http.StatusNotFound {
			t.Errorf("second delete: %d", res.status)
		}
		if n := len(e.do("GET", "/api/monitor/alerts", key, nil).json(t)["alerts"].([]any)); n != 1 {
			t.Errorf("%d alerts after delete, want 1", n)
		}
	})
}

// Bad input: a clear 4xx with details, nothing consumed or stored. Fetch
// failures at creation are the fetch's statuses, with the scan given back.
// The plan's cap is 403 with monitorLimit.
func TestMonitorErrors(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, url := newMonitorEnv(t, d)
		tok, _ := e.MustAccount("monitor-errors@example.com")
		key := e.MustKey(tok, "monitor").RawKey
		cases := []struct {
			name, method, path string
			body               any
			status             int
			field              string
		}{
			{"unknown field", "POST", "/api/monitor", map[string]any{"url": url, "selector": "main"}, 400, "selector"},
			{"interval too short", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": 60}, 400, "intervalSeconds"},
			{"interval too long", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": 2592001}, 400, "intervalSeconds"},
			{"interval wrapping to 5s", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": 18446744079}, 400, "intervalSeconds"},
			{"interval past int64", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": json.Number("99999999999999999999")}, 400, "intervalSeconds"},
			{"interval below int64", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": json.Number("-99999999999999999999")}, 400, "intervalSeconds"},
			{"interval not whole", "POST", "/api/monitor", map[string]any{"url": url, "intervalSeconds": 3600.5}, 400, "intervalSeconds"},
			{"private url", "POST", "/api/monitor", map[string]any{"url": "http://192.168.1.1/terms"}, 400, "url"},
			{"not a url", "POST", "/api/monitor", map[string]any{"url": "terms"}, 400, "url"},
			{"upstream 500", "POST", "/api/monitor", map[string]any{"url": strings.TrimSuffix(url, "/terms") + "/broken"}, 502, ""},
			{"an image", "POST", "/api/monitor", map[string]any{"url": strings.TrimSuffix(url, "/terms") + "/image"}, 422, ""},
			{"delete id not a uuid", "DELETE", "/api/monitor?id=42", nil, 404, ""},
			{"check without id", "POST", "/api/monitor/check", nil, 400, "id"},
			{"delete without id", "DELETE", "/api/monitor", nil, 400, "id"},
			{"check with an empty id", "POST", "/api/monitor/check?id=", nil, 400, "id"},
			{"limit 0", "GET", "/api/monitor/alerts?limit=0", nil, 400, "limit"},
			{"limit not a number", "GET", "/api/monitor/alerts?limit=ten", nil, 400, "limit"},
			{"unread not a boolean", "GET", "/api/monitor/alerts?unread=yes", nil, 400, "unread"},
			{"tampered cursor", "GET", "/api/monitor/alerts?cursor=bm90LWEtY3Vyc29y", nil, 400, "cursor"},
			{"monitorId not a uuid", "GET", "/api/monitor/alerts?monitorId=7", nil, 400, "monitorId"},
			{"no ids", "PATCH", "/api/monitor/alerts", map[string]any{"ids": []string{}, "read": true}, 400, "ids"},
			{"no read", "PATCH", "/api/monitor/alerts", map[string]any{"ids": []string{"6f1c1f8e-0000-4000-8000-000000000000"}}, 400, "read"},
		}
		for _, c := range cases {
			res := e.do(c.method, c.path, key, c.body)
			if res.status != c.status {
				t.Errorf("%s: %d %s, want %d", c.name, res.status, res.body, c.status)
				continue
			}
			if c.field != "" && !strings.Contains(string(res.body), `"field":"`+c.field+`"`) {
				t.Errorf("%s: %s lacks details for %s", c.name, res.body, c.field)
			}
		}
		if list := e.do("GET", "/api/monitor", key, nil).json(t)["monitors"].([]any); len(list) != 0 {
			t.Errorf("%d monitors stored by refused requests", len(list))
		}
		for range 3 {
			if res := e.do("POST", "/api/monitor", key, map[string]any{"url": url}); res.status != 201 {
				t.Fatalf("create: %d %s", res.status, res.body)
			}
		}
		res := e.do("POST", "/api/monitor", key, map[string]any{"url": url})
		if res.status != http.StatusForbidden || contractBody(t, res.body) != `{"error":"Active monitor limit reached for this plan","monitorLimit":3}` {
			t.Errorf("fourth monitor: %d %s", res.status, res.body)
		}
		// Three scans taken: the refused and failed requests took none.
		if rem := e.do("GET", "/api/developer/usage/per-key", key, nil).json(t)["keys"].([]any)[0].(map[string]any)["status"].(map[string]any)["scans"].(map[string]any)["remaining"]; rem != 2.0 {
			t.Errorf("scans remaining %v, want 2", rem)
		}
	})
}

// contractBody is an error body without the limit members every limit
// refusal adds (limit, used, resetsAt, hint), which must be there: the
// members the contract fixes, as JSON with sorted keys.
func contractBody(t *testing.T, body []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	for _, k := range []string{"limit", "used", "hint"} {
		if _, ok := m[k]; !ok {
			t.Errorf("limit refusal %s lacks %s", body, k)
		}
		delete(m, k)
	}
	delete(m, "resetsAt")
	b, _ := json.Marshal(m)
	return string(b)
}

// A monitor on a page robots.txt disallows is refused before the page is
// asked: 422 with errorCode robots and the rule that matched, no monitor, no
// scan; a page of the same site it allows is created as before.
func TestMonitorCreateRespectsRobotsTxt(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, url := newMonitorEnv(t, d)
		tok, _ := e.MustAccount("robots@example.com")
		key := e.MustKey(tok, "monitor").RawKey
		e.Docs.Set("/robots.txt", apptest.Page{ContentType: "text/plain", Body: "User-agent: *\nDisallow: /private/\n"})
		e.Docs.Set("/private/terms", apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})

		res := e.do("POST", "/api/monitor", key, map[string]any{"url": strings.TrimSuffix(url, "/terms") + "/private/terms"})
		body := res.json(t)
		if res.status != http.StatusUnprocessableEntity || body["errorCode"] != "robots" || body["rule"] != "Disallow: /private/" ||
			!strings.Contains(body["error"].(string), "robots.txt") {
			t.Fatalf("disallowed page: %d %s", res.status, res.body)
		}
		if n := e.Docs.Hits("/private/terms"); n != 0 {
			t.Errorf("the disallowed page was requested %d times", n)
		}
		if list := e.do("GET", "/api/monitor", key, nil).json(t)["monitors"].([]any); len(list) != 0 {
			t.Errorf("monitors after the refusal: %v", list)
		}
		res = e.do("POST", "/api/monitor", key, map[string]any{"url": url})
		if res.status != http.StatusCreated || res.header.Get("RateLimit-Remaining") != "4" {
			t.Errorf("allowed page after the refusal: %d %s (RateLimit-Remaining %q: the refusal spent no scan)", res.status, res.body, res.header.Get("RateLimit-Remaining"))
		}
	})
}
