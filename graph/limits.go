package graph

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/clausewatch/clausewatch/graph/generated"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/middleware"
)

// Limits checked on a document before gqlgen validates it. Validation costs
// grow faster than the document (fields compared pairwise, fragments spread
// twice at every level doubling the work), so a 1 KB document could keep a
// core busy for most of a minute; within these limits any document up to the
// body limit is parsed, checked and validated in milliseconds. GraphiQL's
// introspection query fits with room to spare.
const (
	// MaxTokens bounds the lexical tokens of a document (names, punctuation,
	// values, comments; a string of any length is one token).
	MaxTokens = 5000
	// MaxDepth bounds nesting: of brackets as written, and of selection
	// sets with fragments followed.
	MaxDepth = 20
	// MaxFields bounds field selections, aliases included, counted with
	// every fragment spread expanded where it is spread.
	MaxFields = 500
	// MaxSpreads bounds fragment spreads, counted expanded the same way.
	MaxSpreads = 100
	// MaxRepeats bounds how often one response name (an alias, or a field's
	// name) appears in one selection set, fragments expanded: validation
	// compares every two fields of a name, and reports every two that
	// differ.
	MaxRepeats = 10
)

// ResponseTextLimit bounds the strings of one response, in bytes: past it
// the operation fails with one RESPONSE_TOO_LARGE error instead of adding
// the text, so aliases cannot multiply a stored text into a response of any
// size. Each element of a list counts listElementBytes too.
const ResponseTextLimit = 16 << 20

// listElementBytes is what each element of a resolved list is charged to
// the response budget: the server builds every element's fields before
// their strings reach the budget, so strings alone let 40 aliases of an
// analysis of 20,000 findings build 800,000 of them (1.1 GB, 12 s of CPU)
// for a response refused anyway. At this charge an operation builds at most
// 131,072 list elements.
const listElementBytes = 128

// largeFieldCost is the complexity of a field that returns a whole document
// text (Analysis.text, Extraction.text and markdown, Alert.diff), so an
// operation selects at most four of them: each may hold 1.5 million
// characters, and a page selects them for every item.
const largeFieldCost = 40

// MaxVersionDiffs is how many version diffs one request computes. A diff
// analyzes two whole documents (a 1.2-million-character version with
// itself: 1.8 s of processor time), and the scan each draws bounded 60
// aliases of one at the free key's five: 9.1 s of a replica's CPU in one
// request. The first monitorVersionDiff the operation selects, in document
// order with fragments followed, is answered; every later one is refused
// INVALID before it reads, charges or computes anything (the request, not
// the moment, is wrong: it is to be sent again as requests of one diff).
const MaxVersionDiffs = 1

// versionDiffAllowed refuses a monitorVersionDiff past the operation's
// first MaxVersionDiffs, counted by response name in document order, so
// which one is answered does not hang on the order root fields happen to
// run in.
func versionDiffAllowed(ctx context.Context) error {
	oc, fc := graphql.GetOperationContext(ctx), graphql.GetFieldContext(ctx)
	if oc == nil || oc.Operation == nil || fc == nil || fc.Field.Field == nil {
		return nil
	}
	n := 0
	for _, f := range graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Query"}) {
		if f.Name != fc.Field.Name {
			continue
		}
		if f.Alias == fc.Field.Alias {
			break
		}
		n++
	}
	if n < MaxVersionDiffs {
		return nil
	}
	return app.Errorf(app.CodeInvalid, "a request computes at most %d version diff(s): %s was not computed and drew no scan; ask for it in a request of its own",
		MaxVersionDiffs, fc.Field.Alias)
}

const (
	codeQueryLimit    = "QUERY_LIMIT_EXCEEDED"
	codeResponseLimit = "RESPONSE_TOO_LARGE"
)

func init() {
	// As COMPLEXITY_LIMIT_EXCEEDED: refused before anything runs, HTTP 422.
	errcode.RegisterErrorType(codeQueryLimit, errcode.KindProtocol)
}

// complexity weighs the fields that return whole document texts, and a
// page of analyses that selects their text once per item it may hold: a
// page is read whole before the response's text budget can stop it, so 100
// texts of 1.5 million characters would be held at once. (An alert's diff
// is stored at most MaxAlertDiff bytes, so a page of them is bounded as it
// is.)
func complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	large := func(int) int { return largeFieldCost }
	c.Analysis.Text = large
	c.Extraction.Text = large
	c.Extraction.Markdown = large
	c.Alert.Diff = large
	c.VersionDiff.Diff = large
	// A version's grade analyzes its text the first time it is asked.
	c.MonitorVersion.Grade = func(int) int { return 5 }
	c.Query.Analyses = func(child int, limit *int, _ *string) int { return pageCost(child, limit) }
	return c
}

// pageCost is a page's complexity: its selection once, or once per item
// when the selection holds a whole text.
func pageCost(child int, limit *int) int {
	if child < largeFieldCost {
		return child
	}
	n := app.DefaultPageLimit
	if limit != nil && *limit > 0 {
		n = *limit
	}
	return child * n
}

// maxCachedQuery is the longest query text the parsed-document cache keeps:
// the cache holds its 1000 entries by their text, and 1000 bodies of 2 MiB
// would be gigabytes.
const maxCachedQuery = 16 << 10

// queryCache keeps validated documents of short queries only.
type queryCache struct{ *lru.LRU[*ast.QueryDocument] }

func (c queryCache) Add(ctx context.Context, query string, doc *ast.QueryDocument) {
	if len(query) <= maxCachedQuery {
		c.LRU.Add(ctx, query, doc)
	}
}

// documentLimits refuses a document over MaxTokens, MaxDepth, MaxFields or
// MaxSpreads before gqlgen parses and validates it. A document that does not
// lex or parse is left to gqlgen, whose error says where.
type documentLimits struct{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (documentLimits) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if msg := checkDocument(p.Query); msg != "" {
		err := &gqlerror.Error{Message: msg}
		errcode.Set(err, codeQueryLimit)
		return err
	}
	return nil
}

// checkDocument returns why query is over a limit, or "".
func checkDocument(query string) string {
	lex := lexer.New(&ast.Source{Input: query})
	depth := 0
	for n := 0; ; n++ {
		tok, err := lex.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if n == MaxTokens {
			return fmt.Sprintf("the document has more than %d tokens", MaxTokens)
		}
		switch tok.Kind {
		case lexer.BraceL, lexer.ParenL, lexer.BracketL:
			if depth++; depth > MaxDepth {
				return fmt.Sprintf("the document nests deeper than %d", MaxDepth)
			}
		case lexer.BraceR, lexer.ParenR, lexer.BracketR:
			depth--
		}
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return ""
	}
	s := sizer{doc: doc, frags: map[string]*size{}}
	for _, op := range doc.Operations {
		got := s.set(op.SelectionSet)
		switch {
		case got.fields > MaxFields:
			return fmt.Sprintf("an operation selects more than %d fields, fragments expanded", MaxFields)
		case got.spreads > MaxSpreads:
			return fmt.Sprintf("an operation spreads fragments more than %d times, expanded", MaxSpreads)
		case got.depth > MaxDepth:
			return fmt.Sprintf("an operation's selections nest deeper than %d, fragments followed", MaxDepth)
		case got.repeats > MaxRepeats:
			return fmt.Sprintf("a selection set names one field or alias more than %d times, fragments expanded", MaxRepeats)
		}
	}
	return ""
}

// size is a selection set's size with its fragment spreads expanded: keys
// counts its response names, repeats is the most any selection set within
// it repeats one. Counts saturate at a bound past every limit, so fragments
// doubling each other cannot overflow them.
type size struct {
	fields, spreads, depth, repeats int
	keys                            map[string]int
}

const saturated = 1 << 30

// add counts o's selections within z's; merge says they are z's own level
// (an inline fragment or a spread), not a field's children.
func (z *size) add(o size, merge bool) {
	z.fields = min(z.fields+o.fields, saturated)
	z.spreads = min(z.spreads+o.spreads, saturated)
	z.depth = max(z.depth, o.depth)
	z.repeats = max(z.repeats, o.repeats)
	if merge {
		for k, n := range o.keys {
			z.keys[k] = min(z.keys[k]+n, saturated)
		}
	}
}

// sizer measures selection sets, each fragment once: its expanded size is
// remembered, so the work is linear in the document however often the
// fragments spread each other. A fragment met again while it is measured (a
// cycle, which validation refuses) counts nothing.
type sizer struct {
	doc   *ast.QueryDocument
	frags map[string]*size // nil while being measured
}

func (s *sizer) set(set ast.SelectionSet) size {
	z := size{keys: map[string]int{}}
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			z.add(size{fields: 1, depth: 1, keys: map[string]int{sel.Alias: 1}}, true)
			if len(sel.SelectionSet) > 0 {
				sub := s.set(sel.SelectionSet)
				sub.depth++
				z.add(sub, false)
			}
		case *ast.InlineFragment:
			z.add(s.set(sel.SelectionSet), true)
		case *ast.FragmentSpread:
			z.add(size{spreads: 1}, false)
			z.add(s.fragment(sel.Name), true)
		}
	}
	for _, n := range z.keys {
		z.repeats = max(z.repeats, n)
	}
	return z
}

func (s *sizer) fragment(name string) size {
	if z, seen := s.frags[name]; seen {
		if z == nil {
			return size{}
		}
		return *z
	}
	f := s.doc.Fragments.ForName(name)
	if f == nil {
		return size{}
	}
	s.frags[name] = nil
	z := s.set(f.SelectionSet)
	s.frags[name] = &z
	return z
}

type budgetKey struct{}

// responseBudget is one operation's ResponseTextLimit: the bytes of text
// left, and whether a string was refused.
type responseBudget struct {
	left atomic.Int64
	over atomic.Bool
}

// withResponseBudget gives each operation its ResponseTextLimit. An
// operation that overspends it ends with one RESPONSE_TOO_LARGE error and
// no data: an error per refused string would itself be a response of any
// size (40 aliases of a page of findings' quotes made 873,665 of them).
func withResponseBudget(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	b := new(responseBudget)
	b.left.Store(ResponseTextLimit)
	respond := next(context.WithValue(ctx, budgetKey{}, b))
	return func(ctx context.Context) *graphql.Response {
		resp := respond(ctx)
		if resp == nil || !b.over.Load() {
			return resp
		}
		err := &gqlerror.Error{
			Message:    fmt.Sprintf("the response would hold more than %d MiB of text; select fewer large fields", ResponseTextLimit>>20),
			Extensions: map[string]any{"code": codeResponseLimit},
		}
		middleware.SetError(ctx, err.Message)
		return &graphql.Response{Errors: gqlerror.List{err}, Extensions: resp.Extensions}
	}
}

// limitResponse charges each resolved string and list to the operation's
// budget. A string or list that would overspend it is replaced by its
// type's zero value (an empty list builds no elements) before it is
// marshalled, with no field error (withResponseBudget answers the one
// error), and so is every string and list after it.
func limitResponse(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := next(ctx)
	b, _ := ctx.Value(budgetKey{}).(*responseBudget)
	if err != nil || b == nil {
		return res, err
	}
	n := textBytes(res)
	if n == 0 {
		return res, nil
	}
	if b.over.Load() || b.left.Add(-n) < 0 {
		b.over.Store(true)
		return reflect.Zero(reflect.TypeOf(res)).Interface(), nil
	}
	return res, nil
}

func textBytes(v any) int64 {
	switch v := v.(type) {
	case string:
		return int64(len(v))
	case *string:
		if v != nil {
			return int64(len(*v))
		}
	case []string:
		n := int64(len(v)) * listElementBytes
		for _, s := range v {
			n += int64(len(s))
		}
		return n
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		return int64(rv.Len()) * listElementBytes
	}
	return 0
}
