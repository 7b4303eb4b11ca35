package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/billing"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

var update = flag.Bool("update", false, "rewrite rest/testdata/golden from the responses")

// goldenCase is one response of one route: the operation as openapi.json
// names it, the status it must answer and the request that makes it.
type goldenCase struct {
	op     string // "METHOD /path" of openapi.json
	status int
	name   string // tells apart two cases of one status ("" for the only one)
	send   func() response
}

func (c goldenCase) file() string {
	name := strings.NewReplacer(" /", "-", "/", "-", "{", "", "}", "").Replace(strings.ToLower(c.op))
	status := strconv.Itoa(c.status)
	if c.name != "" {
		status += "-" + c.name
	}
	return filepath.Join("testdata", "golden", name, status+".json")
}

// TestResponsesMatchGoldens pins one success and each error status of every
// REST route: status, the headers a client acts on and the body, with ids,
// keys, times and the document server's address normalised. A field added,
// renamed or dropped fails here until the goldens are refreshed
// (go test ./rest -run Golden -update) and openapi.json declares it, which
// TestGoldensMatchOpenAPI checks.
func TestResponsesMatchGoldens(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		for _, c := range goldenCases(t, d) {
			t.Run(c.file(), func(t *testing.T) {
				res := c.send()
				if res.status != c.status {
					t.Fatalf("%s: %d %s, want %d", c.op, res.status, res.body, c.status)
				}
				got := golden(t, res)
				if *update && d == dbtest.SQLite {
					if err := os.MkdirAll(filepath.Dir(c.file()), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(c.file(), got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(c.file())
				if err != nil {
					t.Fatalf("%v (run go test ./rest -run Golden -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s %d differs from %s (refresh with -update if intended):\n got: %s\nwant: %s", c.op, c.status, c.file(), got, want)
				}
			})
		}
	})
}

// goldenHeaders are the response headers a client acts on.
var goldenHeaders = []string{"Content-Type", "WWW-Authenticate", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}

// golden is the stored form of a response.
func golden(t *testing.T, res response) []byte {
	t.Helper()
	headers := map[string]string{}
	for _, h := range goldenHeaders {
		if v := res.header.Get(h); v != "" {
			headers[h] = v
		}
	}
	// Seconds until the window's end depend on when the test runs.
	for _, h := range []string{"Retry-After", "RateLimit-Reset"} {
		if v, ok := headers[h]; ok && v != "1" {
			headers[h] = "<seconds>"
		}
	}
	var body any
	if err := json.Unmarshal(res.body, &body); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, res.body)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"status": res.status, "headers": headers, "body": normalise("", body)}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

var (
	uuidRE   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	rawKeyRE = regexp.MustCompile(`cwsk_[A-Za-z0-9_-]{48}`)
	docsRE   = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)
	stampRE  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T[0-9:.]+(Z|[+-]\d{2}:\d{2})$`)
	dayRE    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// normalise replaces the values that differ from run to run: ids, raw keys,
// times (RFC 3339 strings, and the Unix-millisecond members named *At or
// windowEnd), days, a key's prefix and request count, and the document
// server's address.
var (
	hintTimeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	hintInRE   = regexp.MustCompile(`in (?:under a minute|\d+ h \d+ min|\d+ h|\d+ min)`)
)

func normalise(key string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = normalise(k, x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalise(key, x)
		}
	case float64:
		switch {
		case strings.HasSuffix(key, "At") || key == "windowEnd":
			return "<unix ms>"
		case key == "requestCount":
			// Written by the usage flush at least every second, so a
			// response may come before or after the last requests count.
			return "<count>"
		}
	case string:
		switch {
		case stampRE.MatchString(v):
			return "<time>"
		case dayRE.MatchString(v):
			return "<day>"
		case key == "keyPrefix":
			return "<key prefix>"
		case key == "hint":
			// a limit's hint names when it resets and how long that is
			v = hintTimeRE.ReplaceAllString(v, "<time>")
			v = hintInRE.ReplaceAllString(v, "in <duration>")
		}
		v = uuidRE.ReplaceAllString(v, "<uuid>")
		v = rawKeyRE.ReplaceAllString(v, "<raw key>")
		return docsRE.ReplaceAllString(v, "http://docs")
	}
	return v
}

// goldenCases sets up one account's world on a fresh service and returns the
// cases in the order they must run (later ones count on earlier ones).
func goldenCases(t *testing.T, d dbtest.Dialect) []goldenCase {
	const fetchTimeout = 500 * time.Millisecond
	e := newEnv(t, d, apptest.FetchTimeout(fetchTimeout))
	e.Docs.Handle("/stall", http.HandlerFunc(apptest.Stall))
	// /slow answers once (a monitor's baseline), then stalls, so a check of
	// its monitor runs until the fetch timeout.
	var slowHits atomic.Int32
	e.Docs.Handle("/slow", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slowHits.Add(1) > 1 {
			apptest.Stall(w, r)
			return
		}
		apptest.Page{ContentType: "text/html; charset=utf-8", Body: apptest.TermsPage}.ServeHTTP(w, r)
	}))
	noSecret := newEnv(t, d, apptest.Billing(func(o *billing.Options) { o.WebhookSecret = "" }))

	tok, acct := e.MustAccount("golden@example.com")
	key := e.MustKey(tok).RawKey
	monKey := e.MustKey(tok, "monitor").RawKey
	extractKey := e.MustKey(tok, "extract")
	extractOnly := extractKey.RawKey // revoked by the last key case
	spentTok, _ := e.MustAccount("")
	spent := e.MustKey(spentTok, "extract", "analyze", "monitor").RawKey // its day's scans are used up below
	terms, broken, image, stall := e.Docs.URL("/terms"), e.Docs.URL("/broken"), e.Docs.URL("/image"), e.Docs.URL("/stall")
	spentMonitor := idOf(e.do("POST", "/api/monitor", spent, map[string]any{"url": terms}))
	for range 4 {
		if res := e.do("POST", "/api/extract", spent, map[string]any{"url": terms}); res.status != http.StatusOK {
			t.Fatalf("extract: %d %s", res.status, res.body)
		}
	}
	const badKey = "cwsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	big := []byte(`{"text":"` + strings.Repeat("a", 2<<20) + `"}`)
	text := "We may terminate your account at any time without notice. Any dispute shall be resolved by binding arbitration."
	plain := func(method, path, bearer string) response {
		return e.do(method, path, bearer, []byte(`{}`), "Content-Type", "text/plain")
	}
	var monitorID, slowID, alertID string
	var versions []string // the monitor's content hashes, newest first
	monitorPath := func(p string) string { return p + "?id=" + monitorID }

	// A second account at its monitor limit (free: 3).
	fullTok, _ := e.MustAccount("")
	fullKey := e.MustKey(fullTok, "monitor").RawKey
	for range 3 {
		if res := e.do("POST", "/api/monitor", fullKey, map[string]any{"url": terms}); res.status != http.StatusCreated {
			t.Fatalf("monitor: %d %s", res.status, res.body)
		}
	}
	// A third with two keys: the 201 below makes its last one (free: 3).
	keysTok, _ := e.MustAccount("")
	for range 2 {
		e.MustKey(keysTok)
	}

	cases := []goldenCase{
		{"POST /api/extract", 200, "", func() response { return e.do("POST", "/api/extract", key, map[string]any{"url": terms}) }},
		{"POST /api/extract", 400, "", func() response { return e.do("POST", "/api/extract", key, map[string]any{"url": "ftp://example.com/"}) }},
		{"POST /api/extract", 401, "", func() response { return e.do("POST", "/api/extract", badKey, map[string]any{"url": terms}) }},
		{"POST /api/extract", 403, "", func() response { return e.do("POST", "/api/extract", monKey, map[string]any{"url": terms}) }},
		{"POST /api/extract", 413, "", func() response { return e.do("POST", "/api/extract", key, big) }},
		{"POST /api/extract", 415, "", func() response { return plain("POST", "/api/extract", key) }},
		{"POST /api/extract", 422, "", func() response { return e.do("POST", "/api/extract", key, map[string]any{"url": image}) }},
		{"POST /api/extract", 429, "", func() response { return e.do("POST", "/api/extract", spent, map[string]any{"url": terms}) }},
		{"POST /api/extract", 502, "", func() response { return e.do("POST", "/api/extract", key, map[string]any{"url": broken}) }},
		{"POST /api/extract", 504, "", func() response { return e.do("POST", "/api/extract", key, map[string]any{"url": stall}) }},

		{"POST /api/analyze", 200, "", func() response {
			return e.do("POST", "/api/analyze", key, map[string]any{"text": text, "title": "Terms"})
		}},
		{"POST /api/analyze", 400, "", func() response { return e.do("POST", "/api/analyze", key, map[string]any{"text": text, "url": terms}) }},
		{"POST /api/analyze", 401, "", func() response { return e.do("POST", "/api/analyze", badKey, map[string]any{"text": text}) }},
		{"POST /api/analyze", 403, "", func() response { return e.do("POST", "/api/analyze", extractOnly, map[string]any{"text": text}) }},
		{"POST /api/analyze", 413, "", func() response { return e.do("POST", "/api/analyze", key, big) }},
		{"POST /api/analyze", 415, "", func() response { return plain("POST", "/api/analyze", key) }},
		{"POST /api/analyze", 422, "", func() response { return e.do("POST", "/api/analyze", key, map[string]any{"url": image}) }},
		{"POST /api/analyze", 429, "", func() response { return e.do("POST", "/api/analyze", spent, map[string]any{"text": text}) }},
		{"POST /api/analyze", 502, "", func() response { return e.do("POST", "/api/analyze", key, map[string]any{"url": broken}) }},
		{"POST /api/analyze", 503, "", func() response { return e.do("POST", "/api/analyze", key, map[string]any{"text": text, "ai": true}) }},
		{"POST /api/analyze", 504, "", func() response { return e.do("POST", "/api/analyze", key, map[string]any{"url": stall}) }},

		{"POST /api/analyze/batch", 200, "", func() response {
			return e.do("POST", "/api/analyze/batch", key, map[string]any{"items": []any{map[string]any{"text": text}, map[string]any{"url": broken}}})
		}},
		{"POST /api/analyze/batch", 400, "", func() response { return e.do("POST", "/api/analyze/batch", key, map[string]any{"items": []any{}}) }},
		{"POST /api/analyze/batch", 401, "", func() response { return e.do("POST", "/api/analyze/batch", badKey, map[string]any{"items": []any{}}) }},
		{"POST /api/analyze/batch", 403, "", func() response {
			return e.do("POST", "/api/analyze/batch", extractOnly, map[string]any{"items": []any{map[string]any{"text": text}}})
		}},
		{"POST /api/analyze/batch", 429, "", func() response {
			return e.do("POST", "/api/analyze/batch", spent, map[string]any{"items": []any{map[string]any{"text": text}}})
		}},
		{"POST /api/analyze/batch", 413, "", func() response { return e.do("POST", "/api/analyze/batch", key, big) }},
		{"POST /api/analyze/batch", 415, "", func() response { return plain("POST", "/api/analyze/batch", key) }},

		{"POST /api/monitor", 201, "", func() response {
			res := e.do("POST", "/api/monitor", monKey, map[string]any{"url": terms, "name": "Example terms"})
			monitorID = idOf(res)
			return res
		}},
		{"POST /api/monitor", 400, "", func() response {
			return e.do("POST", "/api/monitor", monKey, map[string]any{"url": terms, "intervalSeconds": 5})
		}},
		{"POST /api/monitor", 401, "", func() response { return e.do("POST", "/api/monitor", badKey, map[string]any{"url": terms}) }},
		{"POST /api/monitor", 403, "scope", func() response { return e.do("POST", "/api/monitor", extractOnly, map[string]any{"url": terms}) }},
		{"POST /api/monitor", 403, "monitorLimit", func() response { return e.do("POST", "/api/monitor", fullKey, map[string]any{"url": terms}) }},
		{"POST /api/monitor", 413, "", func() response { return e.do("POST", "/api/monitor", monKey, big) }},
		{"POST /api/monitor", 415, "", func() response { return plain("POST", "/api/monitor", monKey) }},
		{"POST /api/monitor", 422, "", func() response { return e.do("POST", "/api/monitor", monKey, map[string]any{"url": image}) }},
		{"POST /api/monitor", 429, "", func() response { return e.do("POST", "/api/monitor", spent, map[string]any{"url": terms}) }},
		{"POST /api/monitor", 502, "", func() response { return e.do("POST", "/api/monitor", monKey, map[string]any{"url": broken}) }},
		{"POST /api/monitor", 504, "", func() response { return e.do("POST", "/api/monitor", monKey, map[string]any{"url": stall}) }},

		{"POST /api/monitor/check", 200, "", func() response {
			changed := strings.Replace(apptest.TermsPage, "</main>", "<p>You must pay a cancellation fee of 100 dollars when you leave.</p>\n</main>", 1)
			e.Docs.Set("/terms", apptest.Page{ContentType: "text/html; charset=utf-8", Body: changed})
			return e.do("POST", monitorPath("/api/monitor/check"), monKey, nil)
		}},
		{"POST /api/monitor/check", 400, "", func() response { return e.do("POST", "/api/monitor/check", monKey, nil) }},
		{"POST /api/monitor/check", 401, "", func() response { return e.do("POST", monitorPath("/api/monitor/check"), badKey, nil) }},
		{"POST /api/monitor/check", 403, "", func() response { return e.do("POST", monitorPath("/api/monitor/check"), extractOnly, nil) }},
		{"POST /api/monitor/check", 404, "", func() response { return e.do("POST", "/api/monitor/check?id="+acct.ID, monKey, nil) }},
		{"POST /api/monitor/check", 429, "", func() response { return e.do("POST", "/api/monitor/check?id="+spentMonitor, spent, nil) }},
		{"POST /api/monitor/check", 409, "", func() response {
			res := e.do("POST", "/api/monitor", monKey, map[string]any{"url": e.Docs.URL("/slow")})
			slowID = idOf(res)
			done := make(chan struct{})
			go func() { defer close(done); e.do("POST", "/api/monitor/check?id="+slowID, monKey, nil) }()
			for deadline := time.Now().Add(5 * time.Second); slowHits.Load() < 2 && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			defer func() { <-done }()
			return e.do("POST", "/api/monitor/check?id="+slowID, monKey, nil)
		}},

		{"POST /api/monitor/check", 503, "", func() response {
			b := newEnvOn(t, busyVersions{dbtest.Open(t, d)})
			tok, _ := b.MustAccount("")
			k := b.MustKey(tok, "monitor").RawKey
			id := idOf(b.do("POST", "/api/monitor", k, map[string]any{"url": b.Docs.URL("/terms")}))
			changed := strings.Replace(apptest.TermsPage, "</main>", "<p>You must pay a cancellation fee of 100 dollars when you leave.</p>\n</main>", 1)
			b.Docs.Set("/terms", apptest.Page{ContentType: "text/html; charset=utf-8", Body: changed})
			return b.do("POST", "/api/monitor/check?id="+id, k, nil)
		}},

		{"GET /api/monitor", 200, "", func() response { return e.do("GET", "/api/monitor", monKey, nil) }},
		{"GET /api/monitor", 401, "", func() response { return e.do("GET", "/api/monitor", badKey, nil) }},
		{"GET /api/monitor", 403, "", func() response { return e.do("GET", "/api/monitor", extractOnly, nil) }},

		{"PATCH /api/monitor", 200, "", func() response {
			return e.do("PATCH", monitorPath("/api/monitor"), monKey, map[string]any{"alertOn": "risk"})
		}},
		{"PATCH /api/monitor", 400, "", func() response {
			return e.do("PATCH", monitorPath("/api/monitor"), monKey, map[string]any{"alertOn": "sometimes"})
		}},
		{"PATCH /api/monitor", 401, "", func() response {
			return e.do("PATCH", monitorPath("/api/monitor"), badKey, map[string]any{"alertOn": "risk"})
		}},
		{"PATCH /api/monitor", 403, "", func() response {
			return e.do("PATCH", monitorPath("/api/monitor"), extractOnly, map[string]any{"alertOn": "risk"})
		}},
		{"PATCH /api/monitor", 404, "", func() response {
			return e.do("PATCH", "/api/monitor?id="+acct.ID, monKey, map[string]any{"alertOn": "risk"})
		}},
		{"PATCH /api/monitor", 413, "", func() response { return e.do("PATCH", monitorPath("/api/monitor"), monKey, big) }},
		{"PATCH /api/monitor", 415, "", func() response { return plain("PATCH", monitorPath("/api/monitor"), monKey) }},

		{"GET /api/monitor/alerts", 200, "", func() response {
			res := e.do("GET", "/api/monitor/alerts?limit=1", monKey, nil)
			var page struct{ Alerts []struct{ ID string } }
			_ = json.Unmarshal(res.body, &page) // a wrong body fails the golden
			if len(page.Alerts) == 1 {
				alertID = page.Alerts[0].ID
			}
			return res
		}},
		{"GET /api/monitor/alerts", 400, "", func() response { return e.do("GET", "/api/monitor/alerts?limit=0", monKey, nil) }},
		{"GET /api/monitor/alerts", 401, "", func() response { return e.do("GET", "/api/monitor/alerts", badKey, nil) }},
		{"GET /api/monitor/alerts", 403, "", func() response { return e.do("GET", "/api/monitor/alerts", extractOnly, nil) }},

		{"PATCH /api/monitor/alerts", 200, "", func() response {
			return e.do("PATCH", "/api/monitor/alerts", monKey, map[string]any{"ids": []string{alertID}, "read": true})
		}},
		{"PATCH /api/monitor/alerts", 400, "", func() response {
			return e.do("PATCH", "/api/monitor/alerts", monKey, map[string]any{"ids": []string{"not-a-uuid"}, "read": true})
		}},
		{"PATCH /api/monitor/alerts", 401, "", func() response {
			return e.do("PATCH", "/api/monitor/alerts", badKey, map[string]any{"ids": []string{}})
		}},
		{"PATCH /api/monitor/alerts", 403, "", func() response {
			return e.do("PATCH", "/api/monitor/alerts", extractOnly, map[string]any{"ids": []string{alertID}, "read": true})
		}},
		{"PATCH /api/monitor/alerts", 413, "", func() response { return e.do("PATCH", "/api/monitor/alerts", monKey, big) }},
		{"PATCH /api/monitor/alerts", 415, "", func() response { return plain("PATCH", "/api/monitor/alerts", monKey) }},

		{"GET /api/monitor/versions", 200, "", func() response {
			res := e.do("GET", "/api/monitor/versions?monitorId="+monitorID, monKey, nil)
			var page struct {
				Versions []struct{ ContentHash string }
			}
			_ = json.Unmarshal(res.body, &page) // a wrong body fails the golden
			for _, v := range page.Versions {
				versions = append(versions, v.ContentHash)
			}
			return res
		}},
		{"GET /api/monitor/versions", 400, "", func() response { return e.do("GET", "/api/monitor/versions", monKey, nil) }},
		{"GET /api/monitor/versions", 401, "", func() response { return e.do("GET", "/api/monitor/versions?monitorId="+monitorID, badKey, nil) }},
		{"GET /api/monitor/versions", 403, "", func() response { return e.do("GET", "/api/monitor/versions?monitorId="+monitorID, extractOnly, nil) }},
		{"GET /api/monitor/versions", 404, "", func() response { return e.do("GET", "/api/monitor/versions?monitorId="+acct.ID, monKey, nil) }},

		{"GET /api/monitor/versions/diff", 200, "", func() response {
			if len(versions) < 2 {
				t.Fatalf("versions %v", versions)
			}
			return e.do("GET", "/api/monitor/versions/diff?monitorId="+monitorID+"&from="+versions[len(versions)-1]+"&to="+versions[0], monKey, nil)
		}},
		{"GET /api/monitor/versions/diff", 400, "", func() response {
			return e.do("GET", "/api/monitor/versions/diff?monitorId="+monitorID+"&from=v1&to=v3", monKey, nil)
		}},
		{"GET /api/monitor/versions/diff", 401, "", func() response { return e.do("GET", "/api/monitor/versions/diff", badKey, nil) }},
		{"GET /api/monitor/versions/diff", 403, "", func() response { return e.do("GET", "/api/monitor/versions/diff", extractOnly, nil) }},
		{"GET /api/monitor/versions/diff", 404, "", func() response {
			return e.do("GET", "/api/monitor/versions/diff?monitorId="+monitorID+"&from="+strings.Repeat("0", 64)+"&to="+versions[0], monKey, nil)
		}},
		{"GET /api/monitor/versions/diff", 429, "", func() response {
			var page struct {
				Versions []struct{ ContentHash string }
			}
			_ = json.Unmarshal(e.do("GET", "/api/monitor/versions?monitorId="+spentMonitor, spent, nil).body, &page)
			if len(page.Versions) == 0 {
				t.Fatal("the spent key's monitor has no version")
			}
			v := page.Versions[0].ContentHash
			return e.do("GET", "/api/monitor/versions/diff?monitorId="+spentMonitor+"&from="+v+"&to="+v, spent, nil)
		}},

		{"DELETE /api/monitor", 200, "", func() response { return e.do("DELETE", monitorPath("/api/monitor"), monKey, nil) }},
		{"DELETE /api/monitor", 400, "", func() response { return e.do("DELETE", "/api/monitor", monKey, nil) }},
		{"DELETE /api/monitor", 401, "", func() response { return e.do("DELETE", monitorPath("/api/monitor"), badKey, nil) }},
		{"DELETE /api/monitor", 403, "", func() response { return e.do("DELETE", monitorPath("/api/monitor"), extractOnly, nil) }},
		{"DELETE /api/monitor", 404, "", func() response { return e.do("DELETE", monitorPath("/api/monitor"), monKey, nil) }},

		{"GET /api/developer/keys", 200, "", func() response { return e.do("GET", "/api/developer/keys", spent, nil) }},
		{"GET /api/developer/keys", 401, "", func() response { return e.do("GET", "/api/developer/keys", badKey, nil) }},

		{"POST /api/developer/keys", 201, "", func() response {
			return e.do("POST", "/api/developer/keys", keysTok, map[string]any{"name": "ci", "scopes": []string{"analyze"}})
		}},
		{"POST /api/developer/keys", 400, "", func() response {
			return e.do("POST", "/api/developer/keys", tok, map[string]any{"name": "ci", "scopes": []string{"everything"}})
		}},
		{"POST /api/developer/keys", 401, "", func() response { return e.do("POST", "/api/developer/keys", badKey, map[string]any{"name": "ci"}) }},
		{"POST /api/developer/keys", 403, "keyFromKey", func() response { return e.do("POST", "/api/developer/keys", key, map[string]any{"name": "ci"}) }},
		{"POST /api/developer/keys", 403, "keyLimit", func() response { return e.do("POST", "/api/developer/keys", keysTok, map[string]any{"name": "ci"}) }},
		{"POST /api/developer/keys", 413, "", func() response { return e.do("POST", "/api/developer/keys", tok, big) }},
		{"POST /api/developer/keys", 415, "", func() response { return plain("POST", "/api/developer/keys", tok) }},

		{"DELETE /api/developer/keys/{id}", 200, "", func() response {
			return e.do("DELETE", "/api/developer/keys/"+extractKey.Key.ID, tok, nil)
		}},
		{"DELETE /api/developer/keys/{id}", 401, "", func() response { return e.do("DELETE", "/api/developer/keys/"+acct.ID, badKey, nil) }},
		{"DELETE /api/developer/keys/{id}", 404, "", func() response { return e.do("DELETE", "/api/developer/keys/"+acct.ID, tok, nil) }},

		{"GET /api/developer/usage", 200, "", func() response { e.Flush(); return e.do("GET", "/api/developer/usage?days=1", spent, nil) }},
		{"GET /api/developer/usage", 400, "", func() response { return e.do("GET", "/api/developer/usage?days=91", spent, nil) }},
		{"GET /api/developer/usage", 401, "", func() response { return e.do("GET", "/api/developer/usage", badKey, nil) }},

		{"GET /api/developer/usage/per-key", 200, "", func() response { return e.do("GET", "/api/developer/usage/per-key", spent, nil) }},
		{"GET /api/developer/usage/per-key", 401, "", func() response { return e.do("GET", "/api/developer/usage/per-key", badKey, nil) }},

		{"POST /api/webhooks/payment", 200, "", func() response {
			return e.deliver(event("evt_golden_"+acct.ID, "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_golden", "object": "invoice"}))
		}},
		{"POST /api/webhooks/payment", 400, "", func() response {
			return e.do("POST", "/api/webhooks/payment", "", event("evt_x", "invoice.paid", 0, nil), "payment-signature", "t=1,v1=00")
		}},
		{"POST /api/webhooks/payment", 413, "", func() response {
			return e.do("POST", "/api/webhooks/payment", "", big, "payment-signature", "t=1,v1=00")
		}},
		{"POST /api/webhooks/payment", 500, "", func() response {
			return noSecret.deliver(event("evt_nosecret_"+acct.ID, "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_x", "object": "invoice"}))
		}},
	}
	return cases
}

// TestGoldensMatchOpenAPI holds openapi.json to the goldens: every status an
// operation declares has a golden and every golden's status is declared;
// every member of a golden body is declared in that status's schema, and
// every member the schema requires is there.
func TestGoldensMatchOpenAPI(t *testing.T) {
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	seen := map[string][]string{} // golden dir -> statuses
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			status, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".json"), "-")
			seen[filepath.Base(dir)] = append(seen[filepath.Base(dir)], status)
		}
	}
	for path, ops := range doc["paths"].(map[string]any) {
		if !strings.HasPrefix(path, "/api/") {
			continue
		}
		for method, op := range ops.(map[string]any) {
			dir := strings.NewReplacer("/", "-", "{", "", "}", "").Replace(method + path)
			responses := op.(map[string]any)["responses"].(map[string]any)
			for status := range responses {
				if !slices.Contains(seen[dir], status) {
					t.Errorf("%s %s declares %s but no golden answers it", strings.ToUpper(method), path, status)
				}
			}
			for _, status := range seen[dir] {
				files, _ := filepath.Glob(filepath.Join("testdata", "golden", dir, status+"*.json"))
				r, ok := responses[status].(map[string]any)
				if !ok {
					t.Errorf("%s %s: golden status %s not declared", strings.ToUpper(method), path, status)
					continue
				}
				schema := dig(r, "content", "application/json", "schema")
				for _, f := range files {
					b, _ := os.ReadFile(f)
					var g struct{ Body any }
					if err := json.Unmarshal(b, &g); err != nil {
						t.Fatalf("%s: %v", f, err)
					}
					for _, p := range conform(doc, schema, g.Body, "body") {
						t.Errorf("%s: %s", f, p)
					}
				}
			}
			delete(seen, dir)
		}
	}
	for dir := range seen {
		t.Errorf("goldens %s belong to no operation of openapi.json", dir)
	}
}

// busyVersions stands in for every place for an analysis being taken,
// which a REST test cannot hold from outside the service: a check that saw
// a change cannot compare it now, so it is retried later and check-now
// answers 503, as when the places are taken.
type busyVersions struct{ apptest.Store }

func (busyVersions) FindVersion(context.Context, string, string) (*monitor.MonitorVersion, error) {
	return nil, app.Errorf(app.CodeBusy, "the server is busy with other analyses; retry in a moment")
}

func idOf(res response) string {
	var m struct{ ID string }
	_ = json.Unmarshal(res.body, &m) // a wrong body fails the golden
	return m.ID
}

func dig(m any, keys ...string) any {
	for _, k := range keys {
		mm, _ := m.(map[string]any)
		m = mm[k]
	}
	return m
}

// conform lists how v departs from schema, in the parts of JSON Schema
// openapi.json uses: $ref, oneOf, type (one or a list), properties and
// required, additionalProperties, items, enum, const. A member the schema
// does not name is a departure unless additionalProperties allows it.
func conform(doc map[string]any, schema, v any, at string) []string {
	s, _ := schema.(map[string]any)
	if s == nil {
		return []string{at + ": no schema"}
	}
	if placeholder(v) {
		return nil
	}
	if ref, ok := s["$ref"].(string); ok {
		return conform(doc, dig(doc, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...), v, at)
	}
	alts, ok := s["oneOf"].([]any)
	if !ok {
		alts, ok = s["anyOf"].([]any)
	}
	if ok {
		var all []string
		for _, alt := range alts {
			p := conform(doc, alt, v, at)
			if len(p) == 0 {
				return nil
			}
			all = append(all, p...)
		}
		return []string{fmt.Sprintf("%s: matches none of oneOf/anyOf: %s", at, strings.Join(all, "; "))}
	}
	if types := typesOf(s["type"]); len(types) > 0 && !slices.Contains(types, jsonType(v)) &&
		!(jsonType(v) == "integer" && slices.Contains(types, "number")) {
		return []string{fmt.Sprintf("%s: %s, want %v", at, jsonType(v), types)}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return []string{fmt.Sprintf("%s: %v, want const %v", at, v, c)}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(x any) bool { return fmt.Sprint(x) == fmt.Sprint(v) }) {
		return []string{fmt.Sprintf("%s: %v not in enum %v", at, v, enum)}
	}
	var out []string
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := v[r]; !ok {
				out = append(out, fmt.Sprintf("%s: required %q missing", at, r))
			}
		}
		for k, x := range v {
			if p, ok := props[k]; ok {
				out = append(out, conform(doc, p, x, at+"."+k)...)
				continue
			}
			switch extra := s["additionalProperties"].(type) {
			case map[string]any:
				out = append(out, conform(doc, extra, x, at+"."+k)...)
			case bool:
				if !extra {
					out = append(out, fmt.Sprintf("%s: %q not declared", at, k))
				}
			default:
				out = append(out, fmt.Sprintf("%s: %q not declared", at, k))
			}
		}
	case []any:
		if items, ok := s["items"]; ok {
			for i, x := range v {
				out = append(out, conform(doc, items, x, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return out
}

func typesOf(t any) []string {
	if s, ok := t.(string); ok {
		return []string{s}
	}
	return asList(t)
}

func asList(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		out = append(out, x.(string))
	}
	return out
}

// placeholder reports a normalised value ("<time>", "<unix ms>", ...),
// which stands for whatever it replaced and matches any schema.
func placeholder(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">")
}

// jsonType is v's JSON Schema type.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}
