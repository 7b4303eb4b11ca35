// Package middleware is the HTTP plumbing both transports share: request
// ids, access logs, Prometheus metrics, bearer authentication and usage
// recording. It holds no business rules; those are in app.
package middleware

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clausewatch/clausewatch/internal/app"
)

// MaxBody is the largest request body either transport accepts
// (decisions.md: 2 MiB).
const MaxBody = 2 << 20

// Info is what the middleware learns about one request while it runs.
type Info struct {
	ID     string
	Status int
	Error  string // the error message sent to the caller, if any
}

type infoKey struct{}

// InfoFrom returns the request's Info; transports set Error through it.
func InfoFrom(ctx context.Context) *Info {
	if i, ok := ctx.Value(infoKey{}).(*Info); ok {
		return i
	}
	return &Info{}
}

// SetError notes the error message a transport sent, for the usage log.
func SetError(ctx context.Context, msg string) { InfoFrom(ctx).Error = msg }

type statusWriter struct {
	http.ResponseWriter
	info  *Info
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.info.Status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.info.Status, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Metrics are the HTTP metrics served at /metrics.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// NewMetrics registers the request counter and latency histogram on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "clausewatch_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "clausewatch_http_request_duration_seconds", Help: "HTTP request latency by route and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

// Observe is the outermost middleware: it gives the request an id (kept from
// a sane X-Request-Id or made), recovers panics, logs once and counts it.
// Routes are labelled by their mux pattern, so ids in paths cannot explode
// the metric's cardinality.
func Observe(log *slog.Logger, m *Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &Info{ID: requestID(r.Header.Get("X-Request-Id"))}
		w.Header().Set("X-Request-Id", info.ID)
		sw := &statusWriter{ResponseWriter: w, info: info}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic", "request_id", info.ID, "panic", p)
				if !sw.wrote {
					http.Error(sw, `{"error":"internal error"}`, http.StatusInternalServerError)
				}
			}
			if info.Status == 0 {
				info.Status = http.StatusOK
			}
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			} else if _, p, ok := strings.Cut(route, " "); ok {
				route = p
			}
			d := time.Since(start)
			m.requests.WithLabelValues(route, r.Method, strconv.Itoa(info.Status)).Inc()
			m.latency.WithLabelValues(route, r.Method).Observe(d.Seconds())
			log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("request_id", info.ID), slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", info.Status), slog.Duration("duration", d))
		}()
		next.ServeHTTP(sw, r)
	})
}

func requestID(given string) string {
	if len(given) > 0 && len(given) <= 64 && strings.IndexFunc(given, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')
	}) < 0 {
		return given
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Cancelled reports whether the request's client went away (it closed its
// connection, or the server is shutting its context): an error then is the
// cancellation's, logged at INFO, never as an internal error.
func Cancelled(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}

// Bearer returns the credential of an "Authorization: Bearer ..." header.
func Bearer(r *http.Request) string {
	scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(cred)
}

// Authenticate resolves the bearer credential into an app.Principal on the
// request context, or calls fail (each transport writes its own 401). Once
// the handler has run, the request goes to the usage log.
func Authenticate(svc *app.Service, fail func(http.ResponseWriter, *http.Request, error), next http.Handler) http.Handler {
	return Admit(svc, nil, fail, next)
}

// Admit is Authenticate for a route that says (ask, may be nil) what it
// charges and reads, so that app.Service.Admit authenticates the caller
// and charges, or refuses, in one call. A refusal of a known caller (a
// scope it lacks, a spent budget) goes to fail before the handler reads
// anything, and to the usage log; app settles the admission after the
// handler.
func Admit(svc *app.Service, ask func(*http.Request) app.Ask, fail func(http.ResponseWriter, *http.Request, error), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var need app.Ask
		if ask != nil {
			need = ask(r)
		}
		a, err := svc.Admit(r.Context(), Bearer(r), need)
		if a == nil {
			fail(w, r, err)
			return
		}
		defer svc.Settle(r.Context(), a)
		info := InfoFrom(r.Context())
		if err != nil {
			fail(w, r, err)
		} else {
			next.ServeHTTP(w, r.WithContext(app.WithAdmission(r.Context(), a)))
		}
		p := a.Principal
		rec := app.RequestRecord{
			At: time.Now(), AccountID: p.Account.ID, Method: r.Method, Path: r.URL.Path,
			Status: info.Status, Error: info.Error,
		}
		if rec.Status == 0 {
			rec.Status = http.StatusOK
		}
		if p.Key != nil {
			rec.KeyID, rec.KeyPrefix = &p.Key.ID, p.Key.Prefix
		}
		svc.RecordRequest(rec)
	})
}

// RateLimitHeaders returns r with an observer that writes the IETF RateLimit
// fields of the budget the request draws on to w's headers, so both
// transports send the same ones. The last report wins: a refund's, or the
// last budgeted GraphQL field's.
func RateLimitHeaders(w http.ResponseWriter, r *http.Request) *http.Request {
	var mu sync.Mutex // GraphQL may resolve fields concurrently
	return r.WithContext(app.WithRateLimitObserver(r.Context(), func(rl app.RateLimit) {
		mu.Lock()
		defer mu.Unlock()
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(rl.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(rl.Remaining))
		h.Set("RateLimit-Reset", strconv.FormatInt(rl.ResetSeconds, 10))
	}))
}
