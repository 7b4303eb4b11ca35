package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/clausewatch/clausewatch/graph/generated"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/excerpt"
	"github.com/clausewatch/clausewatch/internal/middleware"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// ComplexityLimit bounds one operation's cost (each field 1 plus its
// children, a whole document text largeFieldCost), so a query of hundreds of
// aliased fields is refused before any resolver runs.
const ComplexityLimit = 200

// Options configures the GraphQL handler.
type Options struct {
	Service  *app.Service
	Monitors *monitor.Service
	Logger   *slog.Logger
	// Introspection enables __schema/__type queries and the explorer page at
	// GET /graphql. Off, GET /graphql answers 404.
	Introspection bool
}

// NewHandler serves GraphQL: POST /graphql runs operations for a bearer
// credential (API key or account session); GET /graphql is the explorer page
// when introspection is on, its assets under /graphql/explorer/. Mount it at
// /graphql and GET /graphql/.
func NewHandler(o Options) http.Handler {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	p := &presenter{log: log}

	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{Service: o.Service, Monitoring: o.Monitors}, Complexity: complexity()}))
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(queryCache{lru.New[*ast.QueryDocument](1000)})
	srv.Use(documentLimits{})
	if o.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(noIntrospection{})
	}
	srv.Use(extension.FixedComplexityLimit(ComplexityLimit))
	srv.SetErrorPresenter(p.present)
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundResponses(noteError)
	srv.AroundOperations(withResponseBudget)
	srv.AroundOperations(withLoaders(o.Service))
	srv.AroundFields(limitResponse)

	// Budgeted fields set the RateLimit-* headers REST sends, for the last
	// budgeted field of the operation.
	api := middleware.Authenticate(o.Service, p.unauthenticated, strictBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(w, middleware.RateLimitHeaders(w, r))
	})))
	explorer := http.Handler(http.HandlerFunc(notFound))
	if o.Introspection {
		explorer = newExplorer()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			api.ServeHTTP(w, r)
		case http.MethodGet:
			explorer.ServeHTTP(w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			writeErrors(w, http.StatusMethodNotAllowed, "method not allowed", "METHOD_NOT_ALLOWED")
		}
	})
}

// noIntrospection refuses an operation selecting __schema or __type, when
// introspection is off, as a client error before anything runs: gqlgen's
// own answer is a plain error the presenter would log and call internal.
type noIntrospection struct{}

func (noIntrospection) ExtensionName() string                   { return "NoIntrospection" }
func (noIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

func (noIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation != nil && introspects(oc.Doc, oc.Operation.SelectionSet) {
		return &gqlerror.Error{Message: "introspection is disabled on this server", Extensions: map[string]any{"code": "INTROSPECTION_DISABLED"}}
	}
	return nil
}

// introspects reports whether a root selection set (fragments followed)
// selects __schema or __type, which exist only at the root.
func introspects(doc *ast.QueryDocument, set ast.SelectionSet) bool {
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			if sel.Name == "__schema" || sel.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if introspects(doc, sel.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			if f := doc.Fragments.ForName(sel.Name); f != nil && introspects(doc, f.SelectionSet) {
				return true
			}
		}
	}
	return false
}

// errorCode is an app code as extensions.code: app's one table of codes,
// upper-cased (not_found: NOT_FOUND), so graph restates none of them.
func errorCode(c app.Code) string {
	return strings.ToUpper(string(c))
}

// presenter turns resolver errors into GraphQL errors. An app.Error shows its
// safe Message with extensions {code, details?, ...Data}; anything else is
// logged once and shown as "internal error", so no raw error text leaks.
type presenter struct {
	log *slog.Logger
}

func (p *presenter) present(ctx context.Context, err error) *gqlerror.Error {
	var ae *app.Error
	if errors.As(err, &ae) && ae.Code != app.CodeInternal {
		out := located(ctx, err)
		out.Message = ae.Message
		out.Extensions = make(map[string]any, len(ae.Data)+2)
		for k, v := range ae.Data {
			out.Extensions[k] = v
		}
		out.Extensions["code"] = errorCode(ae.Code)
		if len(ae.Fields) > 0 {
			out.Extensions["details"] = ae.Fields
		}
		return out
	}
	var ge *gqlerror.Error
	if ae == nil && errors.As(err, &ge) && ge.Err == nil {
		// gqlgen's own: syntax, validation, complexity. Safe to show, once
		// the input it quotes is cut short.
		return quoteShort(ge)
	}
	cause := err
	if ae != nil && ae.Err != nil {
		cause = ae.Err
	}
	out := located(ctx, err)
	if middleware.Cancelled(ctx) {
		// The client went away (closed its connection): nothing failed here.
		p.log.InfoContext(ctx, "graphql: request cancelled by the client",
			slog.String("request_id", middleware.InfoFrom(ctx).ID), slog.Any("err", cause))
		out.Message = "internal error"
		out.Extensions = map[string]any{"code": errorCode(app.CodeInternal)}
		return out
	}
	p.log.ErrorContext(ctx, "graphql: internal error",
		slog.String("request_id", middleware.InfoFrom(ctx).ID),
		slog.String("path", out.Path.String()),
		slog.Any("err", cause))
	out.Message = "internal error"
	out.Extensions = map[string]any{"code": errorCode(app.CodeInternal)}
	return out
}

// maxMessage bounds a gqlgen error's whole message, in characters; each
// input it quotes (a name, a value, a variable's key) is cut by app.Echo.
const maxMessage = 300

// quoteShort returns ge with the input its message and path quote cut to an
// excerpt: gqlgen names a field, fragment or value as it was sent, and a
// name or a value may be megabytes long.
func quoteShort(ge *gqlerror.Error) *gqlerror.Error {
	out := *ge
	parts := strings.Split(ge.Message, `"`)
	for i := 1; i < len(parts); i += 2 {
		parts[i] = app.Echo(parts[i])
	}
	out.Message = excerpt.Cut(strings.Join(parts, `"`), maxMessage)
	out.Path = make(ast.Path, len(ge.Path))
	for i, el := range ge.Path {
		if name, ok := el.(ast.PathName); ok {
			el = ast.PathName(app.Echo(string(name)))
		}
		out.Path[i] = el
	}
	if len(ge.Path) == 0 {
		out.Path = nil
	}
	return &out
}

// located returns a fresh error carrying err's path and locations, never its text.
func located(ctx context.Context, err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return &gqlerror.Error{Path: ge.Path, Locations: ge.Locations}
	}
	return &gqlerror.Error{Path: graphql.GetPath(ctx)}
}

// recoverPanic turns a resolver panic into an internal error; the presenter
// logs it with the stack.
func recoverPanic(_ context.Context, v any) error {
	return app.Internal(fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
}

// noteError hands the first error message to the usage log. It runs on the
// request's goroutine once the response is complete.
func noteError(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp != nil && len(resp.Errors) > 0 {
		middleware.SetError(ctx, resp.Errors[0].Message)
	}
	return resp
}

// unauthenticated answers a request whose credential did not resolve.
func (p *presenter) unauthenticated(w http.ResponseWriter, r *http.Request, err error) {
	if app.ErrorCode(err) != app.CodeUnauthenticated {
		p.log.ErrorContext(r.Context(), "graphql: authentication failed",
			slog.String("request_id", middleware.InfoFrom(r.Context()).ID), slog.Any("err", err))
		writeErrors(w, http.StatusInternalServerError, "internal error", errorCode(app.CodeInternal))
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="clausewatch"`)
	writeErrors(w, http.StatusUnauthorized, app.ErrUnauthenticated().Message, errorCode(app.CodeUnauthenticated))
}

// strictBody refuses bodies over middleware.MaxBody (413), JSON that
// encoding/json would read loosely (a key twice, a name in another case,
// two values; see middleware.CheckJSON) and JSON of the wrong shape (an
// array, a string, a query that is not a string) before gqlgen decodes it.
// gqlgen's own error for a body it cannot decode quotes the whole body back;
// this one says where, in a line.
func strictBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > middleware.MaxBody {
			writeErrors(w, http.StatusRequestEntityTooLarge, "request body too large", errorCode(app.CodeTooLarge))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, middleware.MaxBody))
		if err != nil {
			// Only a body over the limit is 413; a read that failed (the
			// client went away, the read timed out) is the request's fault.
			if errors.As(err, new(*http.MaxBytesError)) {
				writeErrors(w, http.StatusRequestEntityTooLarge, "request body too large", errorCode(app.CodeTooLarge))
			} else {
				writeErrors(w, http.StatusBadRequest, "request body could not be read", errorCode(app.CodeInvalid))
			}
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
			if err := checkRequest(body); err != nil {
				writeErrors(w, http.StatusBadRequest, jsonError(err), errorCode(app.CodeInvalid))
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// request is the body of a GraphQL POST.
type request struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
	Extensions    map[string]any `json:"extensions"`
}

// checkRequest returns CheckJSON's error for body, or the decoder's for a
// body of the wrong shape.
func checkRequest(body []byte) error {
	if err := middleware.CheckJSON(body, reflect.TypeFor[request]()); err != nil {
		return err
	}
	return json.Unmarshal(body, new(request))
}

// jsonError words a checkRequest error in one short line.
func jsonError(err error) string {
	var ae *app.Error
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ) && typ.Field == "":
		return "request body must be a JSON object"
	case errors.As(err, &typ):
		return "invalid request: " + app.Echo(typ.Field) + " must be " + middleware.JSONKind(typ.Type)
	case errors.As(err, &ae) && len(ae.Fields) > 0:
		return ae.Message + ": " + ae.Fields[0].Field + " " + ae.Fields[0].Message
	case errors.As(err, &syn):
		return fmt.Sprintf("malformed JSON: syntax error at byte %d", syn.Offset)
	case errors.Is(err, io.EOF):
		return "request body is empty"
	default:
		return "malformed JSON: the body ends early"
	}
}

func notFound(w http.ResponseWriter, _ *http.Request) {
	writeErrors(w, http.StatusNotFound, "not found", errorCode(app.CodeNotFound))
}

// writeErrors writes a GraphQL-shaped error body outside of an operation.
func writeErrors(w http.ResponseWriter, status int, msg, code string) {
	type gqlErr struct {
		Message    string            `json:"message"`
		Extensions map[string]string `json:"extensions"`
	}
	body, _ := json.Marshal(struct {
		Errors []gqlErr `json:"errors"`
	}{[]gqlErr{{msg, map[string]string{"code": code}}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
