package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/billing"
	"github.com/clausewatch/clausewatch/internal/config"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/llm"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/session"
	"github.com/clausewatch/clausewatch/mcp"
	"github.com/clausewatch/clausewatch/rest"
	"github.com/clausewatch/clausewatch/web"
)

// ownerEmail is the local owner of the zero-setup mode.
const ownerEmail = "owner@localhost"

// ownerIdentity is the account the printed sign-in opens and `key create`
// without --email makes keys for, so those keys show up in the owner's portal.
func ownerIdentity() app.Identity {
	return app.Identity{Subject: app.LocalSubject(ownerEmail), Email: ownerEmail}
}

func serveFlags(fs *flag.FlagSet) {
	fs.String("addr", "", "listen address (overrides CLAUSEWATCH_ADDR)")
}

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs, err := parseFlags("serve", args, stderr)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "serve", fmt.Sprintf("serve takes no arguments, got %q", fs.Args()))
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	if addr := flagString(fs, "addr"); addr != "" {
		cfg.Addr = addr
	}
	analyzer, err := newAnalyzer()
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	if getenv("GOMEMLIMIT") == "" {
		if limit := config.DefaultMemoryLimit(os.ReadFile); limit > 0 {
			debug.SetMemoryLimit(limit)
			log.Info("soft memory limit derived from the memory available (GOMEMLIMIT unset)", "MiB", limit>>20)
		}
	}
	extractor, closeExtractor, err := newExtractor(cfg, func() func() {
		start := time.Now()
		log.Info("preparing the PDF engine for the first PDF (the first time up to 20 s; then kept in CLAUSEWATCH_PDF_CACHE_DIR)")
		return func() { log.Info("PDF engine ready", "took", time.Since(start).Round(time.Millisecond)) }
	})
	if err != nil {
		return err
	}
	defer closeExtractor()

	store, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close()

	sessions, secret, err := newSessions(ctx, cfg)
	if err != nil {
		return err
	}
	svc := newService(cfg, store, sessions, log, analyzer, extractor)
	mon := newMonitors(cfg, svc, store)

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	registerAnalysisQueue(reg, svc)
	mux := http.NewServeMux()
	pay := billing.New(billing.Options{Store: store, WebhookSecret: cfg.WebhookSecret, Prices: cfg.StripePrices, Logger: log})
	rest.Register(mux, rest.Options{Service: svc, Monitors: mon, Billing: pay, Logger: log, Ready: store.Ping, PublicURL: cfg.PublicURL})
	portal := web.Options{Service: svc, Logger: log, PublicURL: cfg.PublicURL, TrustedProxies: cfg.TrustedProxies}
	gql := web.WithSessionCookie(portal, graph.NewHandler(graph.Options{Service: svc, Monitors: mon, Logger: log, Introspection: cfg.Introspection}))
	mux.Handle("/graphql", gql)
	mux.Handle("GET /graphql/", gql) // the explorer's assets
	mux.Handle("/mcp", mcp.NewHandler(mcp.Options{Service: svc, Monitors: mon, Logger: log, Version: buildVersion().Version}))
	web.Register(mux, portal)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	srv := &http.Server{
		Handler:           middleware.Observe(log, middleware.NewMetrics(reg), mux),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      5 * time.Minute, // a batch of five fetches and analyses
		IdleTimeout:       2 * time.Minute,
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.Zero() {
		if err := printWelcome(ctx, stdout, svc, secret, ln.Addr()); err != nil {
			return err
		}
	}
	log.Info("listening", "addr", ln.Addr().String(), "database", dialectName(cfg))

	// The background work outlives the signal: it stops only once the last
	// request is done, so the usage that request recorded is written too.
	bgCtx, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	bgErr := make(chan error, 1)
	go func() { bgErr <- svc.Run(bgCtx, mon.Run) }()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = errors.Join(err, srv.Shutdown(sctx))
	stopBackground()
	return errors.Join(err, <-bgErr)
}

func runMigrate(ctx context.Context, getenv func(string) string, stdout io.Writer) error {
	cfg, store, err := openConfigured(ctx, getenv)
	if err != nil {
		return err
	}
	defer store.Close()
	fmt.Fprintf(stdout, "migrations applied (%s)\n", dialectName(cfg))
	return nil
}

// loadConfig reads and validates the environment, naming every bad value.
func loadConfig(getenv func(string) string) (config.Config, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, fmt.Errorf("configuration:\n%w", err)
	}
	return cfg, nil
}

// openConfigured loads the configuration and opens its migrated store: what
// every command that touches the database starts with.
func openConfigured(ctx context.Context, getenv func(string) string) (config.Config, *db.Store, error) {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return cfg, nil, err
	}
	store, err := openStore(ctx, cfg)
	return cfg, store, err
}

// openStore connects and migrates: the service always runs on the current schema.
func openStore(ctx context.Context, cfg config.Config) (*db.Store, error) {
	store, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

func newService(cfg config.Config, store *db.Store, sessions app.SessionVerifier, log *slog.Logger, analyzer *analyze.Engine, extractor *extract.Extractor) *app.Service {
	var ai *llm.Client
	if cfg.LLMBaseURL != "" {
		ai = llm.New(llm.Config{BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey, Model: cfg.LLMModel})
	}
	return app.New(app.Options{Store: store, Sessions: sessions, Logger: log,
		Fetcher: newFetcher(cfg), LLM: ai, Analyzer: analyzer, Extractor: extractor,
		UsageRetention:      cfg.UsageRetention,
		AnalysisConcurrency: cfg.AnalysisConcurrency, AnalysisTextBytes: cfg.AnalysisTextBytes})
}

// newMonitors builds monitoring on svc.
func newMonitors(cfg config.Config, svc *app.Service, store *db.Store) *monitor.Service {
	return monitor.New(monitor.Options{App: svc, Store: store,
		Workers: cfg.MonitorWorkers, MinInterval: cfg.MonitorMinInterval,
		HostInterval: hostInterval(cfg.MonitorHostInterval),
		// Room for the fetch and a politeness wait as long, before another process may take over.
		Lease: 2*cfg.FetchTimeout + 5*time.Second})
}

// hostInterval maps the setting's 0 (no limit) to monitor's "none" (negative).
func hostInterval(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// newSessions picks the session verifier: JWKS, a configured HS256 secret,
// or in the zero-setup mode a secret generated once and kept in the data
// directory (returned, so the welcome message can sign a token with it).
func newSessions(ctx context.Context, cfg config.Config) (app.SessionVerifier, []byte, error) {
	switch {
	case cfg.AuthJWKSURL != "":
		v, err := session.NewJWKS(ctx, cfg.AuthJWKSURL, cfg.AuthIssuer, cfg.AuthAudience)
		return v, nil, err
	case cfg.AuthHS256Secret != "":
		return session.NewHS256([]byte(cfg.AuthHS256Secret), cfg.AuthIssuer, cfg.AuthAudience), nil, nil
	}
	secret, err := localSecret(cfg.DataDir)
	if err != nil {
		return nil, nil, err
	}
	return session.NewHS256(secret, cfg.AuthIssuer, cfg.AuthAudience), secret, nil
}

func localSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, "session.key")
	if b, err := os.ReadFile(path); err == nil && len(b) >= 64 {
		return []byte(strings.TrimSpace(string(b))), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	secret := hex.EncodeToString(b[:])
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("keep session secret: %w", err)
	}
	return []byte(secret), nil
}

// printWelcome tells a newcomer where to go: the portal's sign-in link, the
// URLs and a sign-in token for the local owner account. The link carries the
// token in its fragment, which browsers never send to a server; the portal
// moves it into a cookie and out of the address bar.
func printWelcome(ctx context.Context, w io.Writer, svc *app.Service, secret []byte, addr net.Addr) error {
	if _, err := svc.EnsureAccount(ctx, ownerIdentity()); err != nil {
		return err
	}
	token, err := session.MintHS256(secret, app.LocalSubject(ownerEmail), ownerEmail, "", "", 30*24*time.Hour)
	if err != nil {
		return err
	}
	base := "http://" + hostPort(addr)
	fmt.Fprintf(w, `
clausewatch is running on embedded SQLite at %[1]s

Open the developer portal, signed in as the local owner (%[2]s):

  %[1]s/#signin=%[3]s

  GraphQL explorer  %[1]s/graphql
  API reference     %[1]s/docs
  MCP (AI agents)   %[1]s/mcp
  REST contract     %[1]s/openapi.json
  health            %[1]s/healthz

Sign-in token for the local owner (%[2]s), valid 30 days:

  export CW_TOKEN=%[3]s

Create an API key with every scope (extract, analyze, monitor) and call the API with it:

  curl -s -X POST %[1]s/api/developer/keys -H "Authorization: Bearer $CW_TOKEN" \
       -H 'Content-Type: application/json' -d '{"name":"my first key","scopes":["extract","analyze","monitor"]}'
  curl -s %[1]s/api/developer/keys -H "Authorization: Bearer cwsk_..."

or from the shell, for the same owner:
  go run ./cmd/clausewatch key create --name dev --scopes extract,analyze,monitor

`, base, ownerEmail, token)
	return nil
}

func hostPort(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func dialectName(cfg config.Config) string {
	if cfg.Postgres() {
		return "postgres"
	}
	return "sqlite"
}

func newFetcher(cfg config.Config) *fetch.Client {
	return fetch.New(fetch.Options{AllowHosts: cfg.FetchAllowHosts, Timeout: cfg.FetchTimeout})
}

// registerAnalysisQueue serves the analysis admission's queue at /metrics:
// long texts wait there for their share of the text budget.
func registerAnalysisQueue(reg prometheus.Registerer, svc *app.Service) {
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "clausewatch_analysis_queued",
			Help: "Analyses waiting for their share of the text budget (CLAUSEWATCH_ANALYSIS_TEXT_BYTES)."},
			func() float64 { return float64(svc.AnalysisQueue().Queued) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "clausewatch_analysis_queue_wait_seconds_total",
			Help: "Time analyses spent waiting for their share of the text budget."},
			func() float64 { return svc.AnalysisQueue().Waited.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "clausewatch_analyses_admitted_total",
			Help: "Analyses admitted to run."},
			func() float64 { return float64(svc.AnalysisQueue().Admitted) }))
}
