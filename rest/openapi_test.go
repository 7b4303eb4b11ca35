package rest_test

import (
	"encoding/json"
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
