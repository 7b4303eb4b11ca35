package main

// envHelp describes every environment variable the commands read, in the
// words of README's "Configuration" table (which has the details).
var envHelp = map[string]string{
	"CLAUSEWATCH_ADDR":                  "listen address (--addr overrides); default :8080",
	"DATABASE_URL":                      "postgres://... (set sslmode) or sqlite:PATH; default sqlite:./data/clausewatch.db",
	"CLAUSEWATCH_WEBHOOK_SECRET":        "payment-provider signing secret (whsec_...); unset: the webhook answers 500",
	"CLAUSEWATCH_STRIPE_PRICES":         "price_id:tier,... mapping prices to plans",
	"CLAUSEWATCH_AUTH_JWKS_URL":         "verify account sessions against an identity provider's JWKS (needs _ISSUER and _AUDIENCE)",
	"CLAUSEWATCH_AUTH_ISSUER":           "the identity provider's issuer",
	"CLAUSEWATCH_AUTH_AUDIENCE":         "the identity provider's audience",
	"CLAUSEWATCH_AUTH_HS256_SECRET":     "account sessions signed with a shared secret (32+ characters); default: generated into the data directory",
	"CLAUSEWATCH_FETCH_ALLOW_HOSTS":     "host:port,... fetched even though private or on another port",
	"CLAUSEWATCH_FETCH_TIMEOUT":         "total time to fetch one document; default 15s",
	"CLAUSEWATCH_MONITOR_MIN_INTERVAL":  "shortest monitor interval; default 1h",
	"CLAUSEWATCH_MONITOR_WORKERS":       "monitor checks run at once; 0 turns the scheduler off; default 4",
	"CLAUSEWATCH_MONITOR_HOST_INTERVAL": "least time between two requests to one host; 0 lifts it; default 1s",
	"CLAUSEWATCH_ANALYSIS_CONCURRENCY":  "analyses run at once; default 8, or 2 x GOMAXPROCS where that is more",
	"CLAUSEWATCH_HTML_CONCURRENCY":      "HTML pages read at once (the others wait their turn); default 4",
	"CLAUSEWATCH_ANALYSIS_TEXT_BYTES":   "bytes of text analyzed at once; longer texts queue; default 6291456 (6 MiB)",
	"CLAUSEWATCH_LLM_BASE_URL":          "OpenAI-compatible endpoint for \"ai\": true; unset: AI answers 503",
	"CLAUSEWATCH_LLM_API_KEY":           "the LLM endpoint's key",
	"CLAUSEWATCH_LLM_MODEL":             "the LLM model name",
	"CLAUSEWATCH_PUBLIC_URL":            "the origin browsers reach the service at, behind a proxy",
	"CLAUSEWATCH_TRUSTED_PROXIES":       "IPs or CIDRs whose X-Forwarded-Proto is believed",
	"CLAUSEWATCH_GRAPHQL_INTROSPECTION": "GraphQL introspection and explorer (true/false); default on in the zero-setup mode",
	"CLAUSEWATCH_USAGE_RETENTION":       "how long raw usage-log rows are kept; default 2160h",
	"CLAUSEWATCH_PDF_CACHE_DIR":         "where the PDF engine's compiled code is kept between runs; default the user cache directory's clausewatch/wazero",
	"CLAUSEWATCH_PDF_WORKERS":           "how many PDFs are read at once, each in a worker process; default 2",
	"CLAUSEWATCH_PDF_CPU_BUDGET":        "the CPU time one PDF may take to read, past which it is refused; default 2s",
	"CLAUSEWATCH_LOG_LEVEL":             "slog level; default info",
	"CLAUSEWATCH_LOG_FORMAT":            "text or json; default text",
}

// allEnv is what serve reads: every variable of the configuration.
var allEnv = []string{
	"CLAUSEWATCH_ADDR", "DATABASE_URL", "CLAUSEWATCH_WEBHOOK_SECRET", "CLAUSEWATCH_STRIPE_PRICES",
	"CLAUSEWATCH_AUTH_JWKS_URL", "CLAUSEWATCH_AUTH_ISSUER", "CLAUSEWATCH_AUTH_AUDIENCE", "CLAUSEWATCH_AUTH_HS256_SECRET",
	"CLAUSEWATCH_FETCH_ALLOW_HOSTS", "CLAUSEWATCH_FETCH_TIMEOUT", "CLAUSEWATCH_MONITOR_MIN_INTERVAL",
	"CLAUSEWATCH_MONITOR_WORKERS", "CLAUSEWATCH_MONITOR_HOST_INTERVAL", "CLAUSEWATCH_ANALYSIS_CONCURRENCY",
	"CLAUSEWATCH_HTML_CONCURRENCY", "CLAUSEWATCH_ANALYSIS_TEXT_BYTES", "CLAUSEWATCH_LLM_BASE_URL", "CLAUSEWATCH_LLM_API_KEY", "CLAUSEWATCH_LLM_MODEL", "CLAUSEWATCH_PUBLIC_URL",
	"CLAUSEWATCH_TRUSTED_PROXIES", "CLAUSEWATCH_GRAPHQL_INTROSPECTION", "CLAUSEWATCH_USAGE_RETENTION",
	"CLAUSEWATCH_PDF_CACHE_DIR", "CLAUSEWATCH_PDF_WORKERS", "CLAUSEWATCH_PDF_CPU_BUDGET", "CLAUSEWATCH_LOG_LEVEL", "CLAUSEWATCH_LOG_FORMAT",
}
