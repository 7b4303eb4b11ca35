package config

import (
	"net/netip"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DatabaseURL != "sqlite:./data/clausewatch.db" || c.DataDir != "./data" || !c.Zero() ||
		c.FetchTimeout != 15*time.Second || c.MonitorMinInterval != time.Hour || c.MonitorWorkers != 4 || c.MonitorHostInterval != time.Second ||
		c.LogFormat != "text" || !c.Introspection {
		t.Errorf("defaults %+v", c)
	}
}

// Eight long analyses sent together all run on a small machine (none
// refused as busy), and a larger one runs two per processor.
func TestDefaultAnalysisConcurrency(t *testing.T) {
	for procs, want := range map[int]int{1: 8, 2: 8, 4: 8, 8: 16, 32: 64} {
		if got := DefaultAnalysisConcurrency(procs); got != want {
			t.Errorf("DefaultAnalysisConcurrency(%d) = %d, want %d", procs, got, want)
		}
	}
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultAnalysisConcurrency(runtime.GOMAXPROCS(0)); c.AnalysisConcurrency != want {
		t.Errorf("AnalysisConcurrency %d by default, want %d", c.AnalysisConcurrency, want)
	}
	if c.PDFWorkers != 2 || c.PDFCPUBudget != 2*time.Second {
		t.Errorf("PDF workers %d and CPU budget %v by default, want 2 and 2s", c.PDFWorkers, c.PDFCPUBudget)
	}
}

func TestEveryBadValueIsNamed(t *testing.T) {
	bad := map[string]string{
		"CLAUSEWATCH_ADDR":                  "8080",
		"DATABASE_URL":                      "mysql://x",
		"CLAUSEWATCH_WEBHOOK_SECRET":        "sk_live_x",
		"CLAUSEWATCH_STRIPE_PRICES":         "price_1:gold",
		"CLAUSEWATCH_AUTH_HS256_SECRET":     "short",
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS":     "localhost",
		"CLAUSEWATCH_FETCH_TIMEOUT":         "soon",
		"CLAUSEWATCH_MONITOR_MIN_INTERVAL":  "-1s",
		"CLAUSEWATCH_MONITOR_WORKERS":       "-1",
		"CLAUSEWATCH_ANALYSIS_CONCURRENCY":  "0",
		"CLAUSEWATCH_HTML_CONCURRENCY":      "257",
		"CLAUSEWATCH_ANALYSIS_TEXT_BYTES":   "1000",
		"CLAUSEWATCH_PDF_WORKERS":           "65",
		"CLAUSEWATCH_PDF_CPU_BUDGET":        "0s",
		"CLAUSEWATCH_MONITOR_HOST_INTERVAL": "often",
		"CLAUSEWATCH_LLM_BASE_URL":          "ftp://x",
		"CLAUSEWATCH_LOG_LEVEL":             "loud",
		"CLAUSEWATCH_LOG_FORMAT":            "xml",
		"CLAUSEWATCH_AUTH_JWKS_URL":         "https://idp.example/jwks.json",
		"CLAUSEWATCH_PUBLIC_URL":            "https://cw.example.com/portal",
		"CLAUSEWATCH_TRUSTED_PROXIES":       "10.0.0.0/8, proxy.internal",
	}
	_, err := Load(env(bad))
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range []string{"CLAUSEWATCH_AUTH_ISSUER", "CLAUSEWATCH_AUTH_AUDIENCE"} {
		if !strings.Contains(err.Error(), name+":") {
			t.Errorf("JWKS without %s accepted", name)
		}
	}
	for name := range bad {
		if name == "CLAUSEWATCH_AUTH_JWKS_URL" {
			continue // valid itself; it makes issuer and audience required
		}
		if !strings.Contains(err.Error(), name+":") {
			t.Errorf("error does not name %s:\n%v", name, err)
		}
	}
}

func TestPostgresAndPrices(t *testing.T) {
	c, err := Load(env(map[string]string{
		"DATABASE_URL":              "postgres://u@h/db?sslmode=disable",
		"CLAUSEWATCH_STRIPE_PRICES": "price_a:base, price_b:advanced",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Postgres() || c.Zero() || c.Introspection || c.StripePrices["price_a"] != "base" || c.StripePrices["price_b"] != "advanced" {
		t.Errorf("%+v", c)
	}
}

// HTML pages read at once: the extractor's default unless set.
func TestHTMLConcurrency(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.HTMLConcurrency != 0 {
		t.Errorf("by default: %d %v, want 0 (the extractor's default)", c.HTMLConcurrency, err)
	}
	c, err = Load(env(map[string]string{"CLAUSEWATCH_HTML_CONCURRENCY": "2"}))
	if err != nil || c.HTMLConcurrency != 2 {
		t.Errorf("set to 2: %d %v", c.HTMLConcurrency, err)
	}
}

// The scheduler can be turned off per process, and politeness lifted for tests.
func TestMonitorSettings(t *testing.T) {
	c, err := Load(env(map[string]string{"CLAUSEWATCH_MONITOR_WORKERS": "0", "CLAUSEWATCH_MONITOR_HOST_INTERVAL": "0", "CLAUSEWATCH_MONITOR_MIN_INTERVAL": "1s"}))
	if err != nil || c.MonitorWorkers != 0 || c.MonitorHostInterval != 0 || c.MonitorMinInterval != time.Second {
		t.Errorf("%+v %v", c, err)
	}
}

// Behind a TLS proxy: the public origin (normalized) and the proxies whose
// X-Forwarded-Proto counts, as CIDRs or single addresses.
func TestProxySettings(t *testing.T) {
	c, err := Load(env(map[string]string{
		"CLAUSEWATCH_PUBLIC_URL":      "https://CW.example.com:8443/",
		"CLAUSEWATCH_TRUSTED_PROXIES": "10.1.2.3/8, 192.168.0.7, ::1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.0.7/32"), netip.MustParsePrefix("::1/128")}
	if c.PublicURL != "https://cw.example.com:8443" || !reflect.DeepEqual(c.TrustedProxies, want) {
		t.Errorf("public URL %q, trusted proxies %v", c.PublicURL, c.TrustedProxies)
	}
	for _, bad := range []string{"cw.example.com", "ftp://cw.example.com", "https://", "https://u:p@cw.example.com", "https://cw.example.com/?a=1", "https://cw.example.com/#x"} {
		if _, err := Load(env(map[string]string{"CLAUSEWATCH_PUBLIC_URL": bad})); err == nil || !strings.Contains(err.Error(), "CLAUSEWATCH_PUBLIC_URL:") {
			t.Errorf("CLAUSEWATCH_PUBLIC_URL=%q: %v", bad, err)
		}
	}
}

func TestDefaultMemoryLimit(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(name string) ([]byte, error) {
			if v, ok := m[name]; ok {
				return []byte(v), nil
			}
			return nil, os.ErrNotExist
		}
	}
	meminfo := "MemTotal:       24576000 kB\nMemFree:        1000 kB\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"cgroup v2 limit", map[string]string{"/sys/fs/cgroup/memory.max": "1073741824\n", "/proc/meminfo": meminfo}, 805306368},
		{"cgroup v2 without a limit: the machine's", map[string]string{"/sys/fs/cgroup/memory.max": "max\n", "/proc/meminfo": meminfo}, 24576000 << 10 / 2},
		{"cgroup v1 limit", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912", "/proc/meminfo": meminfo}, 402653184},
		{"cgroup v1 without a limit", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712", "/proc/meminfo": meminfo}, 24576000 << 10 / 2},
		{"nothing readable", map[string]string{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DefaultMemoryLimit(files(tc.files)); got != tc.want {
				t.Errorf("DefaultMemoryLimit = %d, want %d", got, tc.want)
			}
		})
	}
}
