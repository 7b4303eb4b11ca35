// Package apptest is the one test harness of the service layer: a Service,
// its monitoring and its billing over a real database of db/dbtest, a settable clock, a loopback document
// server with settable pages, a fake AI provider, and account, key and budget
// helpers. app's own tests use it directly; rest's and graph's tests put
// their HTTP front on it. It imports neither transport (both import it).
package apptest

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/billing"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/llm"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/session"
)

// SessionSecret signs the harness's account sessions (HS256).
var SessionSecret = []byte("apptest-session-secret-0123456789abcdef")

// WebhookSecret is the payment provider's signing secret the service trusts.
const WebhookSecret = "whsec_test_secret"

// Store is what the service and its monitoring keep their data in: a
// db.Store, or a test's wrapper of one.
type Store interface {
	app.Store
	monitor.Store
}

// Env is one running service (one "server process") over a real store.
type Env struct {
	T       testing.TB
	Store   Store
	Svc     *app.Service
	Mon     *monitor.Service // monitoring, on Svc and the same clock
	Billing *billing.Service // the payment webhook's events, on the same store and clock
	Clock   *Clock
	Docs    *Docs
	// Stop ends the service's Run, as serve does after the last request, and
	// returns what Run returned; it runs at the test's end if not before.
	Stop func() error
}

type config struct {
	opts         app.Options
	monitor      monitor.Options
	billing      billing.Options
	fetchTimeout time.Duration
}

// Option adjusts the service an Env starts.
type Option func(*config)

// WithLLM gives the service an AI provider (see FakeLLM, LLMServer).
func WithLLM(c *llm.Client) Option { return func(c2 *config) { c2.opts.LLM = c } }

// FetchTimeout bounds one document fetch (default 2s).
func FetchTimeout(d time.Duration) Option { return func(c *config) { c.fetchTimeout = d } }

// Configure changes any other option (a clock of the test's own, ...).
func Configure(f func(*app.Options)) Option { return func(c *config) { f(&c.opts) } }

// Monitoring changes monitoring's options (workers, intervals, lease); its
// App, Store and Now are the service's, whatever it sets.
func Monitoring(f func(*monitor.Options)) Option { return func(c *config) { f(&c.monitor) } }

// Billing changes billing's options (no webhook secret, prices); its Store,
// Logger and Now are the service's, whatever it sets.
func Billing(f func(*billing.Options)) Option { return func(c *config) { f(&c.billing) } }

// New starts a service on store (dbtest.Open, possibly wrapped) with its
// background work running, as serve starts it. Two Envs on one PostgreSQL
// store behave as two server processes. Run stops, and pending usage is
// flushed, at the test's end.
func New(t testing.TB, store Store, opts ...Option) *Env {
	t.Helper()
	e := &Env{T: t, Store: store, Clock: &Clock{}, Docs: newDocs(t)}
	analyzer, extractor := Engines(t)
	c := config{fetchTimeout: 2 * time.Second, billing: billing.Options{WebhookSecret: WebhookSecret}, opts: app.Options{
		Store: store, Sessions: session.NewHS256(SessionSecret, "", ""),
		Logger: slog.New(slog.DiscardHandler), Now: e.Clock.Now,
		Analyzer: analyzer, Extractor: extractor,
	}}
	for _, o := range opts {
		o(&c)
	}
	if c.opts.Fetcher == nil {
		c.opts.Fetcher = fetch.New(fetch.Options{AllowHosts: []string{e.Docs.Addr()}, Timeout: c.fetchTimeout})
	}
	e.Svc = app.New(c.opts)
	c.monitor.App, c.monitor.Store, c.monitor.Now = e.Svc, store, c.opts.Now
	e.Mon = monitor.New(c.monitor)
	c.billing.Store, c.billing.Logger, c.billing.Now = store, c.opts.Logger, c.opts.Now
	e.Billing = billing.New(c.billing)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- e.Svc.Run(ctx, e.Mon.Run) }()
	e.Stop = sync.OnceValue(func() error {
		cancel()
		return <-ran
	})
	t.Cleanup(func() { _ = e.Stop() })
	return e
}

// sharedEngines are built once per test process: the models take a moment to
// decode and the PDF reader to compile, and both are safe to share.
var sharedEngines = sync.OnceValues(func() (engineSet, error) {
	a, err := analyze.Load()
	if err != nil {
		return engineSet{}, err
	}
	// The compiled PDF reader is cached where serve keeps it by default.
	var dir string
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "clausewatch", "wazero")
	}
	x, err := extract.New(extract.Options{CacheDir: dir})
	return engineSet{a, x}, err
})

type engineSet struct {
	analyzer  *analyze.Engine
	extractor *extract.Extractor
}

// Engines returns the analyzer and the extractor every Env's service uses
// (the embedded models, the current extraction rules), shared by the
// process's tests.
func Engines(t testing.TB) (*analyze.Engine, *extract.Extractor) {
	t.Helper()
	e, err := sharedEngines()
	if err != nil {
		t.Fatalf("engines: %v", err)
	}
	return e.analyzer, e.extractor
}

var accounts atomic.Int64

// MustAccount signs in a new account and returns an account-session token
// for it. An empty email makes one up.
func (e *Env) MustAccount(email string) (string, *app.Account) {
	e.T.Helper()
	n := accounts.Add(1)
	if email == "" {
		email = "user" + strconv.FormatInt(n, 10) + "@example.com"
	}
	// Unique per call: PostgreSQL tests share one database per package.
	sub := "test|" + email + "|" + strconv.FormatInt(n, 10) + "|" + time.Now().Format(time.RFC3339Nano)
	a, err := e.Svc.EnsureAccount(context.Background(), app.Identity{Subject: sub, Email: email})
	if err != nil {
		e.T.Fatalf("EnsureAccount: %v", err)
	}
	tok, err := session.MintHS256(SessionSecret, sub, email, "", "", time.Hour)
	if err != nil {
		e.T.Fatalf("MintHS256: %v", err)
	}
	return tok, a
}

// MustKey creates a key with scopes (none: the default ones) for the account
// signed in with token.
func (e *Env) MustKey(token string, scopes ...string) *app.CreatedKey {
	e.T.Helper()
	k, err := e.Svc.CreateKey(e.Ctx(token), app.KeyCreate{Name: "test", Scopes: scopes})
	if err != nil {
		e.T.Fatalf("CreateKey(%v): %v", scopes, err)
	}
	return k
}

// Ctx authenticates bearer as a transport does, so the account (and its
// tier) is read now, and returns a context carrying the caller.
func (e *Env) Ctx(bearer string) context.Context {
	e.T.Helper()
	p, err := e.Svc.Authenticate(context.Background(), bearer)
	if err != nil {
		e.T.Fatalf("Authenticate: %v", err)
	}
	return app.WithPrincipal(context.Background(), p)
}

// SetTier changes an account's plan, as the payment webhook would.
func (e *Env) SetTier(accountID string, tier app.Tier) {
	e.T.Helper()
	if err := e.Store.UpdateBilling(context.Background(), accountID, app.BillingUpdate{Tier: &tier}); err != nil {
		e.T.Fatalf("SetTier: %v", err)
	}
}

// Account reads an account as stored.
func (e *Env) Account(id string) *app.Account {
	e.T.Helper()
	a, err := e.Store.FindAccount(context.Background(), id)
	if err != nil {
		e.T.Fatalf("FindAccount: %v", err)
	}
	return a
}

// ScansUsed is what a pool (a key id, or an account id for the account's own
// pool) has used of today's scans on the service's clock.
func (e *Env) ScansUsed(owner string) int {
	return e.used(owner, "scan", e.Clock.Now().UTC().Format(time.DateOnly))
}

// AIUsed is what a pool has used of this month's AI units.
func (e *Env) AIUsed(owner string) int {
	return e.used(owner, "ai", e.Clock.Now().UTC().Format("2006-01"))
}

// used reads a budget window as app stores it (kind "scan" per UTC day, "ai"
// per UTC month).
func (e *Env) used(owner, kind, period string) int {
	e.T.Helper()
	m, err := e.Store.BudgetUsed(context.Background(), []string{owner}, kind, period)
	if err != nil {
		e.T.Fatalf("BudgetUsed: %v", err)
	}
	return m[owner]
}

// Flush writes the pending usage records now, whether or not the service
// runs its own flusher.
func (e *Env) Flush() {
	e.T.Helper()
	if err := e.Svc.FlushUsage(context.Background()); err != nil {
		e.T.Fatalf("FlushUsage: %v", err)
	}
}

// ForEachDialect runs f as parallel subtests on SQLite and on PostgreSQL.
func ForEachDialect(t *testing.T, f func(t *testing.T, d dbtest.Dialect)) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			f(t, d)
		})
	}
}
