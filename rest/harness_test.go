package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/session"
	"github.com/clausewatch/clausewatch/rest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

var testSecret = []byte("test-secret-test-secret-test-secret-0123")

// env is one running service (one "server process") over a real store.
type env struct {
	t     *testing.T
	store *db.Store
	svc   *app.Service
	srv   *httptest.Server
}

func newEnv(t *testing.T, d dbtest.Dialect) *env {
	t.Helper()
	return newEnvOn(t, dbtest.Open(t, d))
}

// newEnvOn starts a service on an existing store: two envs on one
// PostgreSQL database behave as two server processes.
func newEnvOn(t *testing.T, store *db.Store) *env {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := app.New(app.Options{Store: store, Sessions: session.NewHS256(testSecret, "", ""), Logger: log})
	mux := http.NewServeMux()
	rest.Register(mux, rest.Options{Service: svc, Logger: log, Ready: store.Ping})
	srv := httptest.NewServer(middleware.Observe(log, middleware.NewMetrics(prometheus.NewRegistry()), mux))
	t.Cleanup(func() {
		srv.Close()
		_ = svc.Close(context.Background())
	})
	return &env{t: t, store: store, svc: svc, srv: srv}
}

// mustAccount signs in a new account and returns its session token.
func (e *env) mustAccount(email string) (string, *app.Account) {
	e.t.Helper()
	sub := "test|" + email + "|" + time.Now().Format(time.RFC3339Nano)
	a, err := e.svc.EnsureAccount(context.Background(), app.Identity{Subject: sub, Email: email})
	if err != nil {
		e.t.Fatal(err)
	}
	tok, err := session.MintHS256(testSecret, sub, email, "", "", time.Hour)
	if err != nil {
		e.t.Fatal(err)
	}
	return tok, a
}

// mustKey creates a key for the account behind token.
func (e *env) mustKey(token string, scopes ...string) *app.CreatedKey {
	e.t.Helper()
	body := map[string]any{"name": "test key"}
	if scopes != nil {
		body["scopes"] = scopes
	}
	res := e.do("POST", "/api/developer/keys", token, body)
	if res.status != http.StatusCreated {
		e.t.Fatalf("create key: %d %s", res.status, res.body)
	}
	var k struct {
		Key    struct{ ID string } `json:"key"`
		RawKey string              `json:"rawKey"`
	}
	res.decode(e.t, &k)
	return &app.CreatedKey{Key: &app.Key{ID: k.Key.ID}, RawKey: k.RawKey}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

// do sends a JSON request; body may be nil, a []byte sent raw, or a value encoded as JSON.
func (e *env) do(method, path, bearer string, body any, header ...string) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// forEachDialect runs f as a subtest on SQLite and on PostgreSQL.
func forEachDialect(t *testing.T, f func(t *testing.T, d dbtest.Dialect)) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) { f(t, d) })
	}
}
