package config

import (
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
		"CLAUSEWATCH_MONITOR_HOST_INTERVAL": "often",
		"CLAUSEWATCH_LLM_BASE_URL":          "ftp://x",
		"CLAUSEWATCH_LOG_LEVEL":             "loud",
		"CLAUSEWATCH_LOG_FORMAT":            "xml",
		"CLAUSEWATCH_AUTH_JWKS_URL":         "https://idp.example/jwks.json",
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

// The scheduler can be turned off per process, and politeness lifted for tests.
func TestMonitorSettings(t *testing.T) {
	c, err := Load(env(map[string]string{"CLAUSEWATCH_MONITOR_WORKERS": "0", "CLAUSEWATCH_MONITOR_HOST_INTERVAL": "0", "CLAUSEWATCH_MONITOR_MIN_INTERVAL": "1s"}))
	if err != nil || c.MonitorWorkers != 0 || c.MonitorHostInterval != 0 || c.MonitorMinInterval != time.Second {
		t.Errorf("%+v %v", c, err)
	}
}
