// Package mcp serves clausewatch's tools to AI agents over the Model Context
// Protocol (streamable HTTP, stateless, at /mcp), with the official Go SDK.
// It is a transport like rest and graph: authenticated by the same API keys
// (middleware.Authenticate), each tool maps its arguments to one app call and
// the result back, so scopes, budgets and rate-limit outcomes are app's.
package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
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
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		return newServer(o, r.Context())
	}, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: o.Logger})
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, middleware.RateLimitHeaders(w, r))
	})
	return middleware.Authenticate(o.Service, fail, inner)
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
			return extraction(x), nil
		}, req)
	add(s, "analyze", "Analyze a public URL or given text: the grade, why, and each finding with its quote (one scan; scope analyze).",
		func(ctx context.Context, in analyzeIn) (any, error) {
			a, err := svc.Analyze(ctx, in.input())
			if err != nil {
				return nil, err
			}
			return analysis(a), nil
		}, req)
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
			return batch(b), nil
		}, req)
	add(s, "list_monitors", "List the account's monitors of documents, newest first (scope monitor).",
		func(ctx context.Context, _ struct{}) (any, error) {
			ms, err := mon.FindMonitors(ctx)
			if err != nil {
				return nil, err
			}
			out := monitorsOut{Monitors: make([]monitorOut, len(ms))}
			for i := range ms {
				out.Monitors[i] = monitorOf(&ms[i])
			}
			return out, nil
		}, req)
	add(s, "create_monitor", "Watch a public URL for changes; its first check sets the baseline now (one scan; scope monitor).",
		func(ctx context.Context, in monitorIn) (any, error) {
			m, err := mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: in.URL, Name: in.Name, IntervalSeconds: in.IntervalSeconds})
			if err != nil {
				return nil, err
			}
			return monitorOf(m), nil
		}, req)
	add(s, "list_alerts", "Read the alerts raised by monitors' changes, newest first (scope monitor).",
		func(ctx context.Context, in alertsIn) (any, error) {
			p, err := mon.FindAlerts(ctx, monitor.AlertFilter{Unread: in.Unread, MonitorID: in.MonitorID, Limit: in.Limit, Cursor: in.Cursor, WithoutDiff: true})
			if err != nil {
				return nil, err
			}
			return alerts(p), nil
		}, req)
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
			return map[string]int{"updated": n}, nil
		}, req)
	return s
}

// add registers a tool whose call runs in the HTTP request's context (req:
// the authenticated principal and the rate-limit observer), cancelled with
// the tool call's. An app error becomes a tool error whose structured
// content is REST's error body with the code: {code, error, details?, ...}.
func add[In any](s *sdk.Server, name, desc string, call func(context.Context, In) (any, error), req context.Context) {
	sdk.AddTool(s, &sdk.Tool{Name: name, Description: desc}, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
		cctx, cancel := context.WithCancel(req)
		defer cancel()
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
		out, err := call(cctx, in)
		if err != nil {
			return errorResult(err), nil, nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return errorResult(err), nil, nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil, nil
	})
}

// ErrorBody is a failed tool call's structured content.
func errorBody(err error) map[string]any {
	e := app.AsError(err)
	body := map[string]any{}
	for k, v := range e.Data {
		body[k] = v
	}
	body["code"] = string(e.Code)
	body["error"] = e.Message
	if len(e.Fields) > 0 {
		body["details"] = e.Fields
	}
	return body
}

func errorResult(err error) *sdk.CallToolResult {
	body := errorBody(err)
	b, _ := json.Marshal(body)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// fail answers a request refused before MCP (no or a bad credential) as
// REST does: 401 with WWW-Authenticate and {"error": ...}.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	e := app.AsError(err)
	status := http.StatusUnauthorized
	if e.Code != app.CodeUnauthenticated {
		status = http.StatusForbidden
		if e.Code == app.CodeInternal {
			status = http.StatusInternalServerError
		}
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="clausewatch"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": e.Message})
}
