// Package config reads the service's configuration from the environment and
// validates it once, at start, so a bad value stops the process with a message
// that names the variable.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Config is the validated configuration. Secrets are never logged: String
// below leaves them out.
type Config struct {
	Addr        string
	DatabaseURL string
	// DataDir holds the generated HS256 secret in the zero-setup mode; it is
	// the directory of a sqlite: database, or ./data.
	DataDir string

	WebhookSecret string
	StripePrices  map[string]string // price id -> tier

	AuthJWKSURL     string
	AuthIssuer      string
	AuthAudience    string
	AuthHS256Secret string

	FetchAllowHosts    []string
	FetchTimeout       time.Duration
	MonitorMinInterval time.Duration
	// MonitorWorkers is how many monitor checks one process runs at once;
	// 0 turns its scheduler off.
	MonitorWorkers int
	// MonitorHostInterval is the least time between two requests to one
	// host from all processes on the database together (the floor of the
	// per-host schedule); 0 lifts it (tests).
	MonitorHostInterval time.Duration
	// AnalysisConcurrency is how many analyses one process runs at once
	// (DefaultAnalysisConcurrency unless set); more wait a moment, then 503.
	AnalysisConcurrency int
	// HTMLConcurrency is how many HTML pages one process reads at once;
	// more wait their turn. 0: the extractor's default (4).
	HTMLConcurrency int
	// AnalysisTextBytes is how many bytes of text one process analyzes at
	// once (app.DefaultAnalysisTextBytes unless set); longer texts queue.
	AnalysisTextBytes int

	LLMBaseURL string
	LLMAPIKey  string
	LLMModel   string

	LogLevel  slog.Level
	LogFormat string // text or json

	// PublicURL is the origin browsers reach the portal at (scheme://host[:port]),
	// when a proxy stands in front; https there makes the session cookie Secure.
	PublicURL string
	// TrustedProxies are the peers whose X-Forwarded-Proto is believed.
	TrustedProxies []netip.Prefix

	// Introspection turns on GraphQL introspection and the explorer page.
	Introspection bool
	// UsageRetention is how long raw request-log rows are kept.
	UsageRetention time.Duration
	// PDFCacheDir keeps the PDF reader's compiled code between processes;
	// empty: the user cache directory's clausewatch/wazero.
	PDFCacheDir string
	// PDFWorkers is how many PDFs are read at once, each in a worker
	// process kept warm between PDFs; more wait their turn.
	PDFWorkers int
	// PDFCPUBudget is the CPU time one PDF may take to read; a PDF past it
	// is refused (its worker killed), so one account's PDFs cannot hold
	// the places everyone's wait for.
	PDFCPUBudget time.Duration
}

// minAnalyses is the fewest analyses a process runs at once by default.
// Memory is bounded by the text in analysis (AnalysisTextBytes), not by
// this count: eight short analyses run together, eight long ones queue.
const minAnalyses = 8

// DefaultAnalysisConcurrency is the analyses one process runs at once
// unless CLAUSEWATCH_ANALYSIS_CONCURRENCY says otherwise: at least
// minAnalyses, and two per processor where there are more (analysis is
// processor work; more at once than that only adds memory).
func DefaultAnalysisConcurrency(procs int) int {
	return max(minAnalyses, 2*procs)
}

// Load reads every variable through getenv and reports all bad values at once.
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		Addr:            or(getenv("CLAUSEWATCH_ADDR"), ":8080"),
		DatabaseURL:     or(getenv("DATABASE_URL"), "sqlite:./data/clausewatch.db"),
		WebhookSecret:   getenv("CLAUSEWATCH_WEBHOOK_SECRET"),
		AuthJWKSURL:     getenv("CLAUSEWATCH_AUTH_JWKS_URL"),
		AuthIssuer:      getenv("CLAUSEWATCH_AUTH_ISSUER"),
		AuthAudience:    getenv("CLAUSEWATCH_AUTH_AUDIENCE"),
		AuthHS256Secret: getenv("CLAUSEWATCH_AUTH_HS256_SECRET"),
		LLMBaseURL:      getenv("CLAUSEWATCH_LLM_BASE_URL"),
		LLMAPIKey:       getenv("CLAUSEWATCH_LLM_API_KEY"),
		LLMModel:        getenv("CLAUSEWATCH_LLM_MODEL"),
		LogFormat:       or(getenv("CLAUSEWATCH_LOG_FORMAT"), "text"),
	}
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}

	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		bad("CLAUSEWATCH_ADDR", "want host:port such as :8080, got %q", c.Addr)
	}
	switch {
	case strings.HasPrefix(c.DatabaseURL, "sqlite:"):
		path := strings.TrimPrefix(c.DatabaseURL, "sqlite:")
		if path == "" {
			bad("DATABASE_URL", "sqlite: needs a file path, e.g. sqlite:./data/clausewatch.db")
		}
		c.DataDir = dirOf(path)
	case strings.HasPrefix(c.DatabaseURL, "postgres://"), strings.HasPrefix(c.DatabaseURL, "postgresql://"):
		if _, err := url.Parse(c.DatabaseURL); err != nil {
			bad("DATABASE_URL", "not a valid postgres URL")
		}
		c.DataDir = "./data"
	default:
		bad("DATABASE_URL", "want postgres://... or sqlite:PATH")
	}
	if c.WebhookSecret != "" && !strings.HasPrefix(c.WebhookSecret, "whsec_") {
		bad("CLAUSEWATCH_WEBHOOK_SECRET", "a signing secret starts with whsec_")
	}

	c.StripePrices = map[string]string{}
	for _, pair := range splitList(getenv("CLAUSEWATCH_STRIPE_PRICES")) {
		price, tier, ok := strings.Cut(pair, ":")
		if !ok || price == "" || (tier != "free" && tier != "base" && tier != "advanced") {
			bad("CLAUSEWATCH_STRIPE_PRICES", "want price_id:tier with tier free, base or advanced; got %q", pair)
			continue
		}
		c.StripePrices[price] = tier
	}

	if c.AuthJWKSURL != "" {
		if u, err := url.Parse(c.AuthJWKSURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") {
			bad("CLAUSEWATCH_AUTH_JWKS_URL", "want an http(s) URL")
		}
		// Without both, any token the provider issued for another
		// application would be accepted here.
		if c.AuthIssuer == "" {
			bad("CLAUSEWATCH_AUTH_ISSUER", "required with CLAUSEWATCH_AUTH_JWKS_URL")
		}
		if c.AuthAudience == "" {
			bad("CLAUSEWATCH_AUTH_AUDIENCE", "required with CLAUSEWATCH_AUTH_JWKS_URL")
		}
	}
	if c.AuthHS256Secret != "" && len(c.AuthHS256Secret) < 32 {
		bad("CLAUSEWATCH_AUTH_HS256_SECRET", "must be at least 32 characters")
	}

	for _, h := range splitList(getenv("CLAUSEWATCH_FETCH_ALLOW_HOSTS")) {
		if _, port, err := net.SplitHostPort(h); err != nil || port == "" {
			bad("CLAUSEWATCH_FETCH_ALLOW_HOSTS", "want host:port entries, got %q", h)
			continue
		}
		c.FetchAllowHosts = append(c.FetchAllowHosts, h)
	}
	c.FetchTimeout = duration(getenv, "CLAUSEWATCH_FETCH_TIMEOUT", 15*time.Second, bad)
	c.MonitorMinInterval = duration(getenv, "CLAUSEWATCH_MONITOR_MIN_INTERVAL", time.Hour, bad)
	c.MonitorWorkers = 4
	if v := getenv("CLAUSEWATCH_MONITOR_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 256 {
			bad("CLAUSEWATCH_MONITOR_WORKERS", "want 0 (scheduler off) to 256, got %q", v)
		}
		c.MonitorWorkers = n
	}
	c.MonitorHostInterval = time.Second
	if v := getenv("CLAUSEWATCH_MONITOR_HOST_INTERVAL"); v == "0" {
		c.MonitorHostInterval = 0
	} else {
		c.MonitorHostInterval = duration(getenv, "CLAUSEWATCH_MONITOR_HOST_INTERVAL", time.Second, bad)
	}
	c.AnalysisConcurrency = DefaultAnalysisConcurrency(runtime.GOMAXPROCS(0))
	if v := getenv("CLAUSEWATCH_ANALYSIS_CONCURRENCY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1024 {
			bad("CLAUSEWATCH_ANALYSIS_CONCURRENCY", "want 1 to 1024, got %q", v)
		}
		c.AnalysisConcurrency = n
	}
	if v := getenv("CLAUSEWATCH_HTML_CONCURRENCY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 256 {
			bad("CLAUSEWATCH_HTML_CONCURRENCY", "want 1 to 256, got %q", v)
		}
		c.HTMLConcurrency = n
	}
	if v := getenv("CLAUSEWATCH_ANALYSIS_TEXT_BYTES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1<<20 || n > 1<<30 {
			bad("CLAUSEWATCH_ANALYSIS_TEXT_BYTES", "want 1048576 (1 MiB) to 1073741824 (1 GiB), got %q", v)
		}
		c.AnalysisTextBytes = n
	}
	c.UsageRetention = duration(getenv, "CLAUSEWATCH_USAGE_RETENTION", 90*24*time.Hour, bad)
	c.PDFCacheDir = getenv("CLAUSEWATCH_PDF_CACHE_DIR")
	c.PDFWorkers = 2
	if v := getenv("CLAUSEWATCH_PDF_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 64 {
			bad("CLAUSEWATCH_PDF_WORKERS", "want 1 to 64, got %q", v)
		}
		c.PDFWorkers = n
	}
	// The longest dev PDF (180,000 characters) takes 0.7 s of CPU.
	c.PDFCPUBudget = duration(getenv, "CLAUSEWATCH_PDF_CPU_BUDGET", 2*time.Second, bad)

	if v := getenv("CLAUSEWATCH_PUBLIC_URL"); v != "" {
		// Only an origin: the portal is served at the root of it.
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			bad("CLAUSEWATCH_PUBLIC_URL", "want the origin browsers use, such as https://clausewatch.example.com, got %q", v)
		} else {
			c.PublicURL = u.Scheme + "://" + strings.ToLower(u.Host)
		}
	}
	for _, p := range splitList(getenv("CLAUSEWATCH_TRUSTED_PROXIES")) {
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			addr, aerr := netip.ParseAddr(p)
			if aerr != nil {
				bad("CLAUSEWATCH_TRUSTED_PROXIES", "want IP addresses or CIDRs such as 10.0.0.0/8, got %q", p)
				continue
			}
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}

	if c.LLMBaseURL != "" {
		if u, err := url.Parse(c.LLMBaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") {
			bad("CLAUSEWATCH_LLM_BASE_URL", "want an http(s) URL")
		}
		if c.LLMModel == "" {
			bad("CLAUSEWATCH_LLM_MODEL", "required when CLAUSEWATCH_LLM_BASE_URL is set")
		}
	}

	if err := c.LogLevel.UnmarshalText([]byte(or(getenv("CLAUSEWATCH_LOG_LEVEL"), "info"))); err != nil {
		bad("CLAUSEWATCH_LOG_LEVEL", "want debug, info, warn or error")
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("CLAUSEWATCH_LOG_FORMAT", "want text or json, got %q", c.LogFormat)
	}
	switch v := getenv("CLAUSEWATCH_GRAPHQL_INTROSPECTION"); v {
	case "":
		c.Introspection = c.Zero() // on in the zero-setup mode, off in production
	case "true":
		c.Introspection = true
	case "false":
	default:
		bad("CLAUSEWATCH_GRAPHQL_INTROSPECTION", "want true or false, got %q", v)
	}
	return c, errors.Join(errs...)
}

// Zero reports whether the service runs in the zero-setup default mode
// (embedded SQLite, no identity provider configured), where it generates its
// own session secret and prints a sign-in token.
func (c Config) Zero() bool {
	return strings.HasPrefix(c.DatabaseURL, "sqlite:") && c.AuthJWKSURL == "" && c.AuthHS256Secret == ""
}

// Postgres reports whether DATABASE_URL names PostgreSQL.
func (c Config) Postgres() bool { return !strings.HasPrefix(c.DatabaseURL, "sqlite:") }

func duration(getenv func(string) string, name string, def time.Duration, bad func(string, string, ...any)) time.Duration {
	v := getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		bad(name, "want a positive Go duration such as 15s or 1h, got %q", v)
		return def
	}
	return d
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		if i == 0 {
			return "/"
		}
		return path[:i]
	}
	return "."
}

// DefaultMemoryLimit is the process's soft memory limit (the Go runtime's,
// as GOMEMLIMIT would set it) where GOMEMLIMIT is not set: three quarters of
// the container's memory limit (cgroup v2, then v1), or else half of the
// machine's memory, which it shares with others such as the database. The
// limit makes the collector work harder near it rather than let the heap
// double past it; 0 when neither can be read.
func DefaultMemoryLimit(readFile func(string) ([]byte, error)) int64 {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := readFile(f)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		// "max" (v2) and a page-rounded 2^63 (v1) mean no limit.
		if err == nil && n > 0 && n < 1<<62 {
			return n / 4 * 3
		}
	}
	b, err := readFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10 / 2
		}
	}
	return 0
}
