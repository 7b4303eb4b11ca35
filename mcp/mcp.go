// Package mcp serves clausewatch's tools to AI agents over the Model Context
// Protocol (streamable HTTP, stateless, at /mcp), with the official Go SDK.
// It is a transport like rest and graph: authenticated by the same API keys
// (middleware.Authenticate), each tool maps its arguments to one app call and
// the result back, so scopes, budgets and rate-limit outcomes are app's.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/view"
)

// Options configures the MCP handler.
type Options struct {
	Service  *app.Service
	Monitors *monitor.Service
	Logger   *slog.Logger
	// Version is reported to clients as the server's version.
	Version string
}

// NewHandler returns the /mcp handler. Each request is authenticated, then
// served by a server whose tools run in that request's context: its
// principal, and the observer that sets its RateLimit headers.
func NewHandler(o Options) http.Handler {
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		return newServer(o, r.Context())
	}, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: o.Logger})
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, middleware.RateLimitHeaders(w, r))
	})
	return middleware.Authenticate(o.Service, failer(o.Logger), limitBatches(inner))
}

// MaxBatch is the most calls one JSON-RPC batch may hold. Each call is
// answered in the one response, so a batch of any length (40,000 tools/list
// in a 4 MiB body answered 136 MB) would be work and memory bought with
// one request. Every tool call in a batch draws its own budget in app.
const MaxBatch = 10

// maxBody is the SDK's own bound on a request body, read here first.
const maxBody = 4 << 20

// limitBatches refuses a JSON-RPC batch of more than MaxBatch calls with a
// JSON-RPC error, before the SDK decodes any of it.
func limitBatches(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			rpcError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body exceeds %d bytes or could not be read", maxBody))
			return
		}
		if batchLen(body) > MaxBatch {
			rpcError(w, r, http.StatusBadRequest, fmt.Sprintf("a JSON-RPC batch holds at most %d calls", MaxBatch))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// batchLen counts the calls of a JSON-RPC batch, up to MaxBatch+1: 0 for a
// body that is not an array, which the SDK reads (or refuses) itself.
func batchLen(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return 0
	}
	n := 0
	for ; n <= MaxBatch && dec.More(); n++ {
		var call json.RawMessage
		if dec.Decode(&call) != nil {
			break
		}
	}
	return n
}

// rpcError answers a request refused before the SDK with a JSON-RPC error
// (Invalid Request, no id: it answers no one call), noted for the usage log.
func rpcError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	middleware.SetError(r.Context(), msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32600, "message": msg},
	})
}

func newServer(o Options, req context.Context) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "clausewatch", Version: o.Version}, &sdk.ServerOptions{
		Instructions: "clausewatch reads the fine print of terms of service and privacy policies: extract a document's text, " +
			"analyze it (grade A-E, why, findings with quotes), and monitor documents for changes. Each extract and analysis " +
			"takes one scan from the API key's daily budget; a refusal says the limit, what is used and what to do.",
	})
	svc, mon := o.Service, o.Monitors
	add(s, "extract", "Fetch a public URL and return its readable text and Markdown (one scan; scope extract).",
		func(ctx context.Context, in extractIn) (any, error) {
			x, err := svc.Extract(ctx, app.ExtractInput{URL: in.URL})
			if err != nil {
				return nil, err
			}
			return view.NewExtraction(x), nil
		}, o.Logger, req)
	add(s, "analyze", "Analyze a public URL or given text: the grade, why, and each finding with its quote (one scan; scope analyze).",
		func(ctx context.Context, in analyzeIn) (any, error) {
			a, err := svc.Analyze(ctx, in.input())
			if err != nil {
				return nil, err
			}
			return view.NewAnalysis(a), nil
		}, o.Logger, req)
	add(s, "analyze_batch", "Analyze up to 5 documents (URLs or texts) at once, admitted whole: one scan each (scope analyze).",
		func(ctx context.Context, in batchIn) (any, error) {
			items := make([]app.AnalyzeInput, len(in.Items))
			for i, it := range in.Items {
				items[i] = it.input()
			}
			b, err := svc.AnalyzeBatch(ctx, app.BatchInput{Items: items})
			if err != nil {
				return nil, err
			}
			return view.NewBatchResult(b), nil
		}, o.Logger, req)
	add(s, "list_monitors", "List the account's monitors of documents, newest first (scope monitor).",
		func(ctx context.Context, _ struct{}) (any, error) {
			ms, err := mon.FindMonitors(ctx)
			if err != nil {
				return nil, err
			}
			return view.NewMonitorList(ms), nil
		}, o.Logger, req)
	add(s, "create_monitor", "Watch a public URL for changes; its first check sets the baseline now (one scan; scope monitor).",
		func(ctx context.Context, in monitorIn) (any, error) {
			m, err := mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: in.URL, Name: in.Name, IntervalSeconds: in.IntervalSeconds, AlertOn: in.AlertOn})
			if err != nil {
				return nil, err
			}
			return view.NewMonitor(m), nil
		}, o.Logger, req)
	add(s, "update_monitor", "Change which of a monitor's changes raise an alert (alertOn: any or risk); consumes nothing (scope monitor).",
		func(ctx context.Context, in monitorUpdateIn) (any, error) {
			m, err := mon.UpdateMonitor(ctx, in.ID, monitor.MonitorUpdate{AlertOn: &in.AlertOn})
			if err != nil {
				return nil, err
			}
			return view.NewMonitor(m), nil
		}, o.Logger, req)
	add(s, "list_alerts", "Read the alerts raised by monitors' changes, newest first (scope monitor).",
		func(ctx context.Context, in alertsIn) (any, error) {
			p, err := mon.FindAlerts(ctx, monitor.AlertFilter{Unread: in.Unread, MonitorID: in.MonitorID, Limit: in.Limit, Cursor: in.Cursor, WithoutDiff: true})
			if err != nil {
				return nil, err
			}
			return view.NewAlertList(p), nil
		}, o.Logger, req)
	add(s, "mark_alerts", "Mark alerts read (or unread with read false) (scope monitor).",
		func(ctx context.Context, in markIn) (any, error) {
			read := true
			if in.Read != nil {
				read = *in.Read
			}
			n, err := mon.UpdateAlerts(ctx, monitor.AlertUpdate{IDs: in.IDs, Read: &read})
			if err != nil {
				return nil, err
			}
			return view.AlertsUpdated{Updated: n}, nil
		}, o.Logger, req)
	return s
}

// add registers a tool whose call runs in the HTTP request's context (req:
// the authenticated principal and the rate-limit observer), cancelled with
// the tool call's. Its arguments are read as REST reads a body
// (middleware.DecodeJSON: no key twice, no unknown field, each of its
// type), not by the SDK, which kept the last of a key given twice and
// answered a value of the wrong type with Go's type names. Its result is
// REST's response body for the same operation (view's one type per
// response); an app error becomes a tool error whose structured content
// is REST's error body with the code and the status REST answers:
// {code, status, error, details?, ...}.
func add[In any](s *sdk.Server, name, desc string, call func(context.Context, In) (any, error), log *slog.Logger, req context.Context) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: the schema of %s's arguments: %v", name, err))
	}
	s.AddTool(&sdk.Tool{Name: name, Description: desc, InputSchema: schema}, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := r.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		var in In
		if err := middleware.DecodeJSON(args, &in); err != nil {
			return errorResult(req, log, name, err), nil
		}
		cctx, cancel := context.WithCancel(req)
		defer cancel()
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
		out, err := call(cctx, in)
		if err != nil {
			return errorResult(req, log, name, err), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return errorResult(req, log, name, app.Internal(err)), nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
	})
}

// errorResult is a refused tool call's result. The HTTP exchange still
// answers 200 (the refusal is the call's, inside the JSON-RPC response), so
// the refusal is noted for the usage log here: a refused call counts as an
// error in the key's usage like a refused REST request. An internal cause
// is logged here, once, as REST logs it, and never sent.
func errorResult(req context.Context, log *slog.Logger, tool string, err error) *sdk.CallToolResult {
	e := app.AsError(err)
	logInternal(req, log, e, "tool", tool)
	body := view.ErrorBody(e)
	body["code"] = string(e.Code)
	body["status"] = view.Status(e.Code)
	middleware.SetError(req, e.Message)
	b, _ := json.Marshal(body)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

// logInternal logs an internal error with the request's id, as REST does:
// at INFO when the client went away (nothing failed here), else at ERROR.
func logInternal(ctx context.Context, log *slog.Logger, e *app.Error, attrs ...any) {
	if e.Code != app.CodeInternal {
		return
	}
	attrs = append([]any{"request_id", middleware.InfoFrom(ctx).ID, "err", e}, attrs...)
	if middleware.Cancelled(ctx) {
		log.Info("request cancelled by the client", attrs...)
		return
	}
	log.Error("internal error", attrs...)
}

// failer answers a request refused before MCP (no or a bad credential, or
// a store that failed while authenticating) as REST does: the status of
// view's one table, WWW-Authenticate with a 401, and {"error": ...}.
func failer(log *slog.Logger) func(http.ResponseWriter, *http.Request, error) {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		e := app.AsError(err)
		logInternal(r.Context(), log, e)
		status := view.Status(e.Code)
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="clausewatch"`)
		}
		middleware.SetError(r.Context(), e.Message)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(view.ErrorBody(e))
	}
}
