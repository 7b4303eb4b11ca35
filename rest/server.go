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
	"github.com/clausewatch/clausewatch/internal/billing"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/view"
)

// Options configures the REST handler.
type Options struct {
	Service  *app.Service
	Monitors *monitor.Service
	Billing  *billing.Service // the payment webhook
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
	billing   *billing.Service
	log       *slog.Logger
	ready     func(context.Context) error
	publicURL string
}

// handler is a REST handler: it returns an error instead of writing one, so
// that writeError is the only place error responses are made.
type handler func(w http.ResponseWriter, r *http.Request) error

// Register mounts every REST route on mux.
func Register(mux *http.ServeMux, o Options) {
	s := &server{svc: o.Service, mon: o.Monitors, billing: o.Billing, log: o.Logger, ready: o.Ready, publicURL: o.PublicURL}

	// The route table: each authenticated route with what it asks of its
	// caller's admission (app.Ask): the operation whose scope it needs
	// (interface.md 5.3, read from app's one table; none for an account
	// route, which any credential of the account may use), the scans one
	// call charges, and the key list it reads.
	routes := []struct {
		pattern string
		ask     app.Ask
		h       handler
	}{
		{"POST /api/extract", app.Ask{Op: app.OpExtract, Scans: 1}, s.handleExtract},
		{"POST /api/analyze", app.Ask{Op: app.OpAnalyze, Scans: 1}, s.handleAnalyze},
		{"POST /api/analyze/batch", app.Ask{Op: app.OpAnalyzeBatch}, s.handleAnalyzeBatch}, // its scans are its items'
		{"POST /api/monitor", app.Ask{Op: app.OpMonitor}, s.handleMonitorCreate},
		{"GET /api/monitor", app.Ask{Op: app.OpMonitor}, s.handleMonitorList},
		{"DELETE /api/monitor", app.Ask{Op: app.OpMonitor}, s.handleMonitorDelete},
		{"PATCH /api/monitor", app.Ask{Op: app.OpMonitor}, s.handleMonitorUpdate},
		{"POST /api/monitor/check", app.Ask{Op: app.OpMonitor}, s.handleMonitorCheck},
		{"GET /api/monitor/alerts", app.Ask{Op: app.OpMonitor}, s.handleAlertList},
		{"PATCH /api/monitor/alerts", app.Ask{Op: app.OpMonitor}, s.handleAlertUpdate},
		{"GET /api/monitor/versions", app.Ask{Op: app.OpMonitor}, s.handleVersionList},
		{"GET /api/monitor/versions/diff", app.Ask{Op: app.OpMonitor}, s.handleVersionDiff},

		{"GET /api/developer/keys", app.Ask{KeyList: true}, s.handleKeyList},
		{"POST /api/developer/keys", app.Ask{}, s.handleKeyCreate},
		{"DELETE /api/developer/keys/{id}", app.Ask{}, s.handleKeyRevoke},
		{"GET /api/developer/usage", app.Ask{}, s.handleUsage},
		{"GET /api/developer/usage/per-key", app.Ask{}, s.handleUsagePerKey},
	}
	for _, rt := range routes {
		s.route(mux, rt.pattern, rt.ask, rt.h)
	}

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

// route mounts an authenticated handler. Its admission (app.Service.Admit:
// the caller, the scope, the scans the route charges) is decided before the
// handler reads the body, so a key lacking the scope gets 403, and a key
// whose daily scans are spent 429, before any 400, 413 or 415; the scans
// the handler's operation does not take are given back when it returns.
func (s *server) route(mux *http.ServeMux, pattern string, ask app.Ask, h handler) {
	need := func(*http.Request) app.Ask { return ask }
	if ask.KeyList {
		need = func(r *http.Request) app.Ask {
			a := ask
			a.IncludeRevoked = r.URL.Query().Get("includeRevoked") == "true"
			return a
		}
	}
	admit := middleware.Admit(s.svc, need, s.writeError, s.wrap(h))
	mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		admit.ServeHTTP(w, middleware.RateLimitHeaders(w, r)) // a refusal's 429 carries them too
	}))
}

func (s *server) wrap(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// Status is the HTTP status of an error code (view's one table, which MCP
// answers by too).
func Status(c app.Code) int { return view.Status(c) }

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
	middleware.SetError(r.Context(), e.Message)
	_ = writeJSON(w, status, view.ErrorBody(e))
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
