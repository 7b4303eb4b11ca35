package rest_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
)

// openapi.json describes every /api endpoint of the contract.
func TestOpenAPICoversEveryEndpoint(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	res := e.do("GET", "/openapi.json", "", nil)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	res.decode(t, &doc)
	endpoints := []string{
		"POST /api/extract", "POST /api/analyze", "POST /api/analyze/batch",
		"POST /api/monitor", "GET /api/monitor", "DELETE /api/monitor", "POST /api/monitor/check",
		"GET /api/monitor/alerts", "PATCH /api/monitor/alerts",
		"GET /api/developer/keys", "POST /api/developer/keys", "DELETE /api/developer/keys/{id}",
		"GET /api/developer/usage", "GET /api/developer/usage/per-key", "POST /api/webhooks/payment",
		"GET /api/monitor/versions", "GET /api/monitor/versions/diff", "GET /feeds/{token}/alerts", "GET /feeds/{token}/monitors/{id}",
	}
	for _, ep := range endpoints {
		method, path, _ := strings.Cut(ep, " ")
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			t.Errorf("openapi.json lacks %s", ep)
		}
	}
}

// AnalyzeInput is exactly one of url and text: each branch says which
// member it requires, so a generated client or a validator refuses a body
// with neither.
func TestAnalyzeInputBranchesRequireTheirMember(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				OneOf []struct {
					Required []string `json:"required"`
				} `json:"oneOf"`
			} `json:"schemas"`
		} `json:"components"`
	}
	newEnv(t, dbtest.SQLite).do("GET", "/openapi.json", "", nil).decode(t, &doc)
	var got []string
	for _, branch := range doc.Components.Schemas["AnalyzeInput"].OneOf {
		got = append(got, strings.Join(branch.Required, ","))
	}
	if strings.Join(got, " | ") != "url | text" {
		t.Errorf("AnalyzeInput's branches require %q, want url | text", got)
	}
}

// GET /docs renders openapi.json with the vendored Redoc: the page names
// only its own assets, whose integrity hash matches the file served; the
// renderer loads nothing from another host (Redoc's own logo included), and
// a Content-Security-Policy holds the page to its own origin.
func TestDocsPageIsOffline(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	page := e.do("GET", "/docs", "", nil)
	if page.status != 200 || !strings.Contains(string(page.body), `spec-url="/openapi.json"`) ||
		!strings.Contains(string(page.body), `src="/docs/assets/redoc.standalone.js"`) || strings.Contains(string(page.body), "https://") {
		t.Fatalf("/docs: %d %s", page.status, page.body)
	}
	if got := page.header.Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'none'") ||
		!strings.Contains(got, "script-src 'self'") || !strings.Contains(got, "connect-src 'self'") {
		t.Errorf("/docs Content-Security-Policy = %q, want the page held to its own origin", got)
	}
	js := e.do("GET", "/docs/assets/redoc.standalone.js", "", nil)
	if js.status != 200 || len(js.body) < 100000 {
		t.Fatalf("renderer: %d, %d bytes", js.status, len(js.body))
	}
	if m := regexp.MustCompile(`src:"https?://[^"]*"`).Find(js.body); m != nil {
		t.Errorf("the renderer loads %s from another host", m)
	}
	sum := sha256.Sum256(js.body)
	if !strings.Contains(string(page.body), "sha256-"+base64.StdEncoding.EncodeToString(sum[:])) {
		t.Error("the page's integrity hash is not the served renderer's")
	}
}
