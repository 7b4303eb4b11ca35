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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/session"
	"github.com/clausewatch/clausewatch/rest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

var testSecret = []byte("test-secret-test-secret-test-secret-0123")

// env is one running service (one "server process") over a real store.
type env struct {
	t     testing.TB
	store app.Store
	svc   *app.Service
	srv   *httptest.Server
	docs  *httptest.Server // public documents, on loopback and allowlisted
	clock atomic.Pointer[time.Time]
	// stopRun ends the service's Run, as serve does after the last request.
	stopRun func() error
}

func newEnv(t *testing.T, d dbtest.Dialect) *env {
	t.Helper()
	return newEnvOn(t, dbtest.Open(t, d))
}

// newEnvOn starts a service on an existing store: two envs on one
// PostgreSQL database behave as two server processes. opts adjust the
// service's options (a failing store, an AI client, ...).
func newEnvOn(t testing.TB, store app.Store, opts ...func(*app.Options)) *env {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := &env{t: t, docs: newDocServer(t)}
	e.clock.Store(new(time.Time))
	o := app.Options{
		Store: store, Sessions: session.NewHS256(testSecret, "", ""), Logger: log,
		WebhookSecret: testWebhookSecret,
		Fetcher:       fetch.New(fetch.Options{AllowHosts: []string{e.docs.Listener.Addr().String()}, Timeout: 2 * time.Second}),
		Now: func() time.Time {
			if t := e.clock.Load(); !t.IsZero() {
				return *t
			}
			return time.Now()
		},
	}
	for _, f := range opts {
		f(&o)
	}
	svc := app.New(o)
	mux := http.NewServeMux()
	rest.Register(mux, rest.Options{Service: svc, Logger: log, Ready: func(context.Context) error { return nil }})
	srv := httptest.NewServer(middleware.Observe(log, middleware.NewMetrics(prometheus.NewRegistry()), mux))
	// As in serve: the background work stops after the last request.
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }()
	e.stopRun = sync.OnceValue(func() error {
		stop()
		return <-ran
	})
	t.Cleanup(func() {
		srv.Close()
		_ = e.stopRun()
	})
	e.store, e.svc, e.srv = store, svc, srv
	return e
}

// setClock fixes the service's clock (budget windows); zero restores time.Now.
func (e *env) setClock(t time.Time) { e.clock.Store(&t) }

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

const testWebhookSecret = "whsec_test_secret"

const termsPage = `<!doctype html><html><head><title>Example Terms of Service</title></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>
<main><h1>Terms of Service</h1>
<p>By using the service you agree to these terms.</p>
<p>We may change these terms at any time without notice.</p>
<p>We may terminate your account at any time for any reason.</p>
<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>
<p>These terms are governed by the laws of the State of Delaware.</p>
<p>In no event shall we be liable for any indirect or consequential damages.</p>
</main><footer>© Example</footer></body></html>`

// newDocServer serves the documents the tests fetch, on 127.0.0.1 only.
func newDocServer(t testing.TB) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/terms", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, termsPage)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}
