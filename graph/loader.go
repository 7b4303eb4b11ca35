package graph

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/clausewatch/clausewatch/internal/app"
)

// analysisLoader reads each stored analysis an operation asks for once,
// however many aliases ask: 100 aliases of analysis(id) { grade } are one
// read of one row's grade, not 100 reads of its findings and text. It lives
// as long as one operation.
type analysisLoader struct {
	svc *app.Service
	mu  sync.Mutex
	ids map[string]*loadedAnalysis
}

// loadedAnalysis is one id's read: its lock is held while it is read, so
// aliases resolved at once wait for the one read instead of each starting
// their own.
type loadedAnalysis struct {
	mu    sync.Mutex
	parts app.AnalysisParts
	a     *app.Analysis
	err   error
	done  bool
}

type loaderKey struct{}

// withLoaders gives each operation its own loader.
func withLoaders(svc *app.Service) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		return next(context.WithValue(ctx, loaderKey{}, &analysisLoader{svc: svc, ids: map[string]*loadedAnalysis{}}))
	}
}

// load returns the analysis id with at least parts read. A later alias
// asking for more parts reads the row again, with both: at most three reads
// of one id per operation.
func (l *analysisLoader) load(ctx context.Context, id string, parts app.AnalysisParts) (*app.Analysis, error) {
	l.mu.Lock()
	e := l.ids[id]
	if e == nil {
		e = &loadedAnalysis{}
		l.ids[id] = e
	}
	l.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done && (e.err != nil || e.parts.Covers(parts)) {
		return e.a, e.err
	}
	if e.done {
		parts = app.AnalysisParts{Body: parts.Body || e.parts.Body, Text: parts.Text || e.parts.Text}
	}
	e.a, e.err = l.svc.FindAnalysis(ctx, id, parts)
	e.parts, e.done = parts, true
	return e.a, e.err
}

// findAnalysis reads the analysis id for the current field (an
// analysis(id) selection): through the operation's loader, only the parts
// its selection needs.
func findAnalysis(ctx context.Context, svc *app.Service, id string) (*app.Analysis, error) {
	parts := analysisParts(ctx)
	if l, ok := ctx.Value(loaderKey{}).(*analysisLoader); ok {
		return l.load(ctx, id, parts)
	}
	return svc.FindAnalysis(ctx, id, parts)
}

// analysisParts is what the current field's selection of an Analysis reads
// beyond the columns every read has (id, grade, score).
func analysisParts(ctx context.Context) app.AnalysisParts {
	var parts app.AnalysisParts
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		switch f.Name {
		case "id", "grade", "score", "__typename":
		case "text":
			parts.Text = true
		default:
			parts.Body = true
		}
	}
	return parts
}
