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

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/rest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// env is the shared harness's service with the REST routes in front, served
// on loopback as the server serves them.
type env struct {
	*apptest.Env
	h   http.Handler
	srv *httptest.Server
}

func newEnv(t *testing.T, d dbtest.Dialect, opts ...apptest.Option) *env {
	t.Helper()
	return newEnvOn(t, dbtest.Open(t, d), opts...)
}

// newEnvOn starts a service on an existing store: two envs on one
// PostgreSQL database behave as two server processes.
func newEnvOn(t testing.TB, store apptest.Store, opts ...apptest.Option) *env {
	t.Helper()
	e := &env{Env: apptest.New(t, store, opts...)}
	log := slog.New(slog.DiscardHandler)
	mux := http.NewServeMux()
	rest.Register(mux, rest.Options{Service: e.Svc, Monitors: e.Mon, Billing: e.Billing, Logger: log, Ready: func(context.Context) error { return nil }})
	e.h = middleware.Observe(log, middleware.NewMetrics(prometheus.NewRegistry()), mux)
	e.srv = httptest.NewServer(e.h)
	t.Cleanup(e.srv.Close)
	return e
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

// do sends a JSON request; body may be nil, a []byte sent raw, or a value encoded as JSON.
func (e *env) do(method, path, bearer string, body any, header ...string) response {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.T.Fatal(err)
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
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}
