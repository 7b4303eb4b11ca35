// Package rest serves the fixed /api endpoints of interface.md over the
// service layer: each handler maps the request to one app call and maps the
// result back. It also serves the operational endpoints.
package rest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Options configures the REST handler.
type Options struct {
	Service  *app.Service
	Monitors *monitor.Service
	Logger   *slog.Logger
	// Ready reports whether the database answers (GET /readyz).
	Ready func(context.Context) error
	// PublicURL is the origin the portal is reached at, which feed entries
	// link to (config.Config.PublicURL); empty: the request's own.
	PublicURL string
}

type server struct {
	svc       *app.Service
	mon       *monitor.Service
	log       *slog.Logger
	ready     func(context.Context) error
	publicURL string
}

// handler is a REST handler: it returns an error instead of writing one, so
// that writeError is the only place error responses are made.
type handler func(w http.ResponseWriter, r *http.Request) error

// Register mounts every REST route on mux.
func Register(mux *http.ServeMux, o Options) {
	s := &server{svc: o.Service, mon: o.Monitors, log: o.Logger, ready: o.Ready, publicURL: o.PublicURL}

	// scoped routes: interface.md 5.3, the scope read from app's one table
	s.route(mux, "POST /api/extract", app.OpExtract, s.handleExtract)
	s.route(mux, "POST /api/analyze", app.OpAnalyze, s.handleAnalyze)
	s.route(mux, "POST /api/analyze/batch", app.OpAnalyzeBatch, s.handleAnalyzeBatch)
	s.route(mux, "POST /api/monitor", app.OpMonitor, s.handleMonitorCreate)
	s.route(mux, "GET /api/monitor", app.OpMonitor, s.handleMonitorList)
	s.route(mux, "DELETE /api/monitor", app.OpMonitor, s.handleMonitorDelete)
	s.route(mux, "PATCH /api/monitor", app.OpMonitor, s.handleMonitorUpdate)
	s.route(mux, "POST /api/monitor/check", app.OpMonitor, s.handleMonitorCheck)
	s.route(mux, "GET /api/monitor/alerts", app.OpMonitor, s.handleAlertList)
	s.route(mux, "PATCH /api/monitor/alerts", app.OpMonitor, s.handleAlertUpdate)
	s.route(mux, "GET /api/monitor/versions", app.OpMonitor, s.handleVersionList)
	s.route(mux, "GET /api/monitor/versions/diff", app.OpMonitor, s.handleVersionDiff)

	// account routes: any credential of the account
	s.route(mux, "GET /api/developer/keys", "", s.handleKeyList)
	s.route(mux, "POST /api/developer/keys", "", s.handleKeyCreate)
	s.route(mux, "DELETE /api/developer/keys/{id}", "", s.handleKeyRevoke)
	s.route(mux, "GET /api/developer/usage", "", s.handleUsage)
	s.route(mux, "GET /api/developer/usage/per-key", "", s.handleUsagePerKey)

	mux.Handle("POST /api/webhooks/payment", s.wrap(s.handleWebhook))
	// Feeds: public by their token, outside /api and its credentials.
	mux.Handle("GET /feeds/{token}/alerts", s.wrap(s.handleFeed))
	mux.Handle("GET /feeds/{token}/monitors/{id}", s.wrap(s.handleFeed))
	mux.Handle("/api/", s.wrap(func(http.ResponseWriter, *http.Request) error {
		return app.Errorf(app.CodeNotFound, "no such endpoint")
	}))

	mux.Handle("GET /healthz", s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}))
	mux.Handle("GET /readyz", s.wrap(s.handleReady))
	page, assets := docsPage()
	mux.Handle("GET /docs", s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", docsCSP)
		_, err := w.Write(page)
		return err
	}))
	mux.Handle("GET /docs/assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		assets.ServeHTTP(w, r)
	}))
	mux.Handle("GET /openapi.json", s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "application/json")
		_, err := w.Write(openAPI)
		return err
	}))
}

// route mounts an authenticated handler for op ("" for an account route
// any credential may use). The scope and a scan refused with the
// authentication are checked before the handler reads the body, so a key
// lacking the scope gets 403, and a key whose daily scans are spent 429,
// before any 400, 413 or 415.
func (s *server) route(mux *http.ServeMux, pattern string, op app.Operation, h handler) {
	scope := app.ScopeOf(op)
	inner := s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		r = middleware.RateLimitHeaders(w, r)
		if scope != "" {
			if err := app.Require(r.Context(), scope); err != nil {
				return err
			}
		}
		if err := s.svc.RefusedScan(r.Context()); err != nil {
			return err // before the body is read: a refused request costs no more
		}
		return h(w, r)
	})
	mux.Handle(pattern, middleware.AuthenticateFor(s.svc, prefetchOf(pattern, scope), s.writeError, inner))
}

// prefetchOf is what a route asks of the store right after authentication,
// so that an API key's authentication does it in the same statement: the
// key list, or the one scan a single analysis or extraction charges (taken
// with the key, refunded if the request fails before charging).
func prefetchOf(pattern, scope string) func(*http.Request) app.Prefetch {
	switch pattern {
	case "GET /api/developer/keys":
		return func(r *http.Request) app.Prefetch {
			return app.Prefetch{KeyList: true, IncludeRevoked: r.URL.Query().Get("includeRevoked") == "true"}
		}
	case "POST /api/analyze", "POST /api/extract":
		return func(*http.Request) app.Prefetch { return app.Prefetch{Scans: 1, Scope: scope} }
	}
	return nil
}

func (s *server) wrap(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// statusOf is the one table from error code to HTTP status.
var statusOf = map[app.Code]int{
	app.CodeInvalid:         http.StatusBadRequest,
	app.CodeUnauthenticated: http.StatusUnauthorized,
	app.CodeForbidden:       http.StatusForbidden,
	app.CodeNotFound:        http.StatusNotFound,
	app.CodeConflict:        http.StatusConflict,
	app.CodeTooLarge:        http.StatusRequestEntityTooLarge,
	app.CodeUnsupportedType: http.StatusUnsupportedMediaType,
	app.CodeUnreadable:      http.StatusUnprocessableEntity,
	app.CodeNotLegal:        http.StatusUnprocessableEntity,
	app.CodeRateLimited:     http.StatusTooManyRequests,
	app.CodeInternal:        http.StatusInternalServerError,
	app.CodeRetryLater:      http.StatusInternalServerError, // the contract's webhook failure, which the provider retries
	app.CodeUpstream:        http.StatusBadGateway,
	app.CodeUnavailable:     http.StatusServiceUnavailable,
	app.CodeBusy:            http.StatusServiceUnavailable,
	app.CodeTimeout:         http.StatusGatewayTimeout,
}

// Status is the HTTP status of an error code; codes added to app later
// answer 500 until the table names them.
func Status(c app.Code) int {
	if s, ok := statusOf[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// writeError is the only writer of error responses: { "error": message,
// "details"?: [...], ...contract-fixed members }. Internal causes are logged
// here, once, and never sent.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := app.AsError(err)
	status := Status(e.Code)
	if e.Code == app.CodeInternal {
		if middleware.Cancelled(r.Context()) {
			// The client went away (closed its connection): nothing failed here.
			s.log.Info("request cancelled by the client", "request_id", middleware.InfoFrom(r.Context()).ID, "err", e)
		} else {
			s.log.Error("internal error", "request_id", middleware.InfoFrom(r.Context()).ID, "err", e)
		}
	}
	if reset := w.Header().Get("RateLimit-Reset"); status == http.StatusTooManyRequests && reset != "" {
		w.Header().Set("Retry-After", reset)
	}
	if e.Code == app.CodeBusy {
		w.Header().Set("Retry-After", "1")
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="clausewatch"`)
	}
	body := map[string]any{}
	for k, v := range e.Data {
		body[k] = v
	}
	body["error"] = e.Message
	if len(e.Fields) > 0 {
		body["details"] = e.Fields
	}
	middleware.SetError(r.Context(), e.Message)
	_ = writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// decode reads a strict JSON body into v: JSON content type (415), at most
// middleware.MaxBody bytes (413), well-formed, one value, field names exact,
// no key twice, no unknown fields (400).
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return app.Errorf(app.CodeUnsupportedType, "Content-Type must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, middleware.MaxBody))
	if err != nil {
		return decodeError(err)
	}
	return middleware.DecodeJSON(body, v)
}

// decodeError words a body that could not be read: past the limit (413),
// or cut off.
func decodeError(err error) error {
	if errors.As(err, new(*http.MaxBytesError)) {
		return app.Errorf(app.CodeTooLarge, "request body exceeds %d bytes", middleware.MaxBody)
	}
	return &app.Error{Code: app.CodeInvalid, Message: "malformed JSON", Fields: []app.FieldError{{Field: "body", Message: "cannot be read as JSON"}}}
}

func (s *server) handleReady(w http.ResponseWriter, r *http.Request) error {
	if err := s.ready(r.Context()); err != nil {
		s.log.Warn("not ready", "err", err)
		return app.Errorf(app.CodeUnavailable, "database unreachable")
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
