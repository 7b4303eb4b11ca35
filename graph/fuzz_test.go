package graph_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// FuzzDocument: any GraphQL document, run by a signed-in account through the
// whole handler (body checks, document limits, parse, validation, execution),
// answers JSON with a client status, data or errors and no internal error, and
// never panics. It is seeded with the documents whose validation once took a
// core for seconds (attackDocuments). Documents naming a url are skipped: the
// fuzzer must never make the service fetch an address it invented. make proof
// runs it for a bounded time.
func FuzzDocument(f *testing.F) {
	e := apptest.New(f, dbtest.Open(f, dbtest.SQLite))
	tok, _ := e.MustAccount("")
	h := graph.NewHandler(graph.Options{Service: e.Svc, Monitors: e.Mon, Logger: slog.New(slog.DiscardHandler), Introspection: true})
	for _, s := range []string{
		`{ viewer { id email tier } }`,
		`{ apiKeys { id name scopes } usage(days: 7) { date requests } }`,
		`mutation { createApiKey(input: {name: "k"}) { rawKey key { id } } }`,
		`mutation { a: analyze(input: {text: "We may terminate your account."}) { grade findings { category } } }`,
		`query Q($d: Int) { usage(days: $d) { date } }`,
		`{ __schema { types { name } } }`,
		`{ analyses(limit: 1000) { items { id } } }`,
		`fragment F on Query { viewer { id } } { ...F ...F }`,
		`{ viewer { id } } { viewer { id } }`,
		"{ viewer { id",
		`{ """x""" }`,
	} {
		f.Add(s)
	}
	for _, s := range attackDocuments() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if strings.Contains(strings.ToLower(doc), "url") {
			return
		}
		body, _ := json.Marshal(map[string]string{"query": doc})
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var res struct {
			Data   json.RawMessage `json:"data"`
			Errors []struct {
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if rec.Code >= 500 || json.Unmarshal(rec.Body.Bytes(), &res) != nil || len(res.Errors) == 0 && len(res.Data) == 0 {
			t.Fatalf("%q: %d %.300s", doc, rec.Code, rec.Body.String())
		}
		for _, e := range res.Errors {
			if e.Extensions["code"] == "INTERNAL" {
				t.Fatalf("%q: internal error: %.300s", doc, rec.Body.String())
			}
		}
	})
}
