package graph_test

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/graph"
)

// The explorer loads only files the server embeds, each matching the
// integrity its page declares, so it works offline and trusts no CDN.
func TestExplorerIsSelfContained(t *testing.T) {
	h := graph.NewHandler(graph.Options{Introspection: true})
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	page := get("/graphql")
	if page.Code != http.StatusOK {
		t.Fatalf("GET /graphql: %d", page.Code)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"\s+integrity="([^"]*)"`).FindAllStringSubmatch(page.Body.String(), -1)
	if len(refs) != 4 {
		t.Fatalf("the page references %d assets with integrity, want 4 (GraphiQL js+css, React, ReactDOM):\n%s", len(refs), page.Body.String())
	}
	if strings.Contains(page.Body.String(), "https://") {
		t.Errorf("the page names a remote URL:\n%s", page.Body.String())
	}
	for _, ref := range refs {
		path, want := html.UnescapeString(ref[1]), html.UnescapeString(ref[2])
		if !strings.HasPrefix(path, "/graphql/explorer/") {
			t.Errorf("asset %s is not served by the explorer", path)
			continue
		}
		rec := get(path)
		sum := sha256.Sum256(rec.Body.Bytes())
		if got := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); rec.Code != http.StatusOK || got != want {
			t.Errorf("GET %s: %d, integrity %s, want 200 and %s", path, rec.Code, got, want)
		}
	}
	if rec := get("/graphql/explorer/missing.js"); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown asset: %d, want 404", rec.Code)
	}

	off := graph.NewHandler(graph.Options{})
	rec := httptest.NewRecorder()
	off.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/graphql/explorer/graphiql.min.js", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("an asset with the explorer off: %d, want 404", rec.Code)
	}
}
