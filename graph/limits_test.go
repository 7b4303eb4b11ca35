package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// attackDocuments are documents whose validation, unchecked, cost a core
// for seconds to minutes; each is over one of the documented limits.
func attackDocuments() map[string]string {
	docs := map[string]string{}
	// Fragments spreading the next one twice: 2^30 fields once expanded, in 1 KB.
	var b strings.Builder
	b.WriteString("{ ...F0 }")
	for i := range 30 {
		fmt.Fprintf(&b, " fragment F%d on Query { ...F%d ...F%d }", i, i+1, i+1)
	}
	b.WriteString(" fragment F30 on Query { viewer { id } }")
	docs["fragments doubled"] = b.String()
	docs["a field 10,000 times"] = "{ viewer { " + strings.Repeat("id ", 10000) + "} }"
	docs["a field 600 times"] = "{ viewer { " + strings.Repeat("id ", 600) + "} }"
	var aliases strings.Builder
	aliases.WriteString("{")
	for i := range 501 {
		fmt.Fprintf(&aliases, " a%d: __typename", i)
	}
	docs["501 aliases"] = aliases.String() + " }"
	docs["nested brackets"] = strings.Repeat("{ viewer ", 30) + strings.Repeat("}", 30)
	docs["nested list values"] = `{ usage(days: ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `) { date } }`
	docs["comments"] = strings.Repeat("#\n", 100000) + "{ viewer { id } }"
	var chain strings.Builder
	chain.WriteString("{ ...C0 }")
	for i := range 25 {
		fmt.Fprintf(&chain, " fragment C%d on Query { viewer { ...C%d } }", i, i+1)
	}
	docs["selections nested through fragments"] = chain.String() + " fragment C25 on Query { viewer { id } }"
	var spreads strings.Builder
	spreads.WriteString("{ ")
	for i := range 101 {
		fmt.Fprintf(&spreads, "...S%d ", i)
	}
	spreads.WriteString("}")
	for i := range 101 {
		fmt.Fprintf(&spreads, " fragment S%d on Query { s%d: __typename }", i, i)
	}
	docs["101 spreads"] = spreads.String()
	// Every two fields of one name and other arguments are a conflict
	// validation reports: 31,000 errors, 7 MB, from 250 fields.
	var conflicts strings.Builder
	conflicts.WriteString("{")
	for i := range 250 {
		fmt.Fprintf(&conflicts, " a: usage(days: %d) { date }", i)
	}
	docs["one alias, 250 arguments"] = conflicts.String() + " }"
	docs["one alias through fragments"] = "{ viewer { ...A ...A } } fragment A on Account { ...B ...B } fragment B on Account { ...C ...C } " +
		"fragment C on Account { ...D ...D } fragment D on Account { id }"
	return docs
}

// A document over a limit is refused before validation with
// QUERY_LIMIT_EXCEEDED (HTTP 422, as a complexity refusal), runs nothing,
// and GraphiQL's own introspection query still passes.
func TestDocumentLimits(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{introspection: true})
	tok, _ := e.MustAccount("")
	for name, doc := range attackDocuments() {
		r := e.do(t, tok, doc, nil)
		if r.status != http.StatusUnprocessableEntity || r.code() != "QUERY_LIMIT_EXCEEDED" || (len(r.Data) > 0 && string(r.Data) != "null") {
			t.Errorf("%s: %d %.300s, want 422 QUERY_LIMIT_EXCEEDED", name, r.status, r.body)
		}
	}
	var got struct {
		Schema struct {
			Types []struct{ Name string }
		} `json:"__schema"`
	}
	e.mustData(t, tok, introspectionQuery, nil, &got)
	if len(got.Schema.Types) == 0 {
		t.Error("the introspection query answered no types")
	}
	// Within the limits, the documents are gqlgen's to judge.
	for _, doc := range []string{
		"{ viewer { " + strings.Repeat("id ", 10) + "} }",
		"{ " + strings.Repeat("...V ", 10) + "} fragment V on Query { viewer { id } }",
	} {
		e.mustData(t, tok, doc, nil, &struct{}{})
	}
}

// Aliases cannot multiply a stored text into a response of any size: an
// operation of 100 aliases of one 1.5-million-character analysis is refused
// before anything runs, the byte budget stops what the complexity limit lets
// through, and one alias answers the whole text.
func TestResponseTextLimit(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		tok, acct := e.MustAccount("")
		text := strings.Repeat("🚀", 1_500_000) // 6 MB: three of them are over 16 MiB
		a := &app.Analysis{ID: "6f1c1f8e-0000-4000-8000-0000000b16a1", Grade: "C", Disclaimer: app.Disclaimer,
			Source:    app.Source{Title: "Big", DocumentType: "terms", Language: "en"},
			CreatedAt: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), Text: text}
		if err := e.Store.CreateAnalysis(t.Context(), acct.ID, nil, a); err != nil {
			t.Fatal(err)
		}
		aliases := func(n int) string {
			var q strings.Builder
			q.WriteString("query($id: ID!) {")
			for i := range n {
				fmt.Fprintf(&q, " a%d: analysis(id: $id) { text }", i)
			}
			return q.String() + " }"
		}
		vars := map[string]any{"id": a.ID}
		if r := e.do(t, tok, aliases(100), vars); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" || len(r.body) > 1000 {
			t.Errorf("100 aliases: %d %.300s, want COMPLEXITY_LIMIT_EXCEEDED", r.status, r.body)
		}
		r := e.do(t, tok, aliases(4), vars)
		if r.code() != "RESPONSE_TOO_LARGE" || len(r.body) > 2*graph.ResponseTextLimit {
			t.Errorf("4 aliases: %d, %d bytes, code %q, want RESPONSE_TOO_LARGE", r.status, len(r.body), r.code())
		}
		var one struct{ A0 struct{ Text string } }
		e.mustData(t, tok, aliases(1), vars, &one)
		if one.A0.Text != text {
			t.Errorf("one alias: %d bytes of text, want %d", len(one.A0.Text), len(text))
		}
		// A page selecting texts costs one text per item it may hold, so
		// no page holds more than the aliases could.
		page := func(limit int, fields string) string {
			return fmt.Sprintf("{ analyses(limit: %d) { analyses { %s } } }", limit, fields)
		}
		for _, q := range []string{page(100, "text"), "{ analyses { analyses { text } } }"} {
			if r := e.do(t, tok, q, nil); r.code() != "COMPLEXITY_LIMIT_EXCEEDED" {
				t.Errorf("%s: %d %.300s, want COMPLEXITY_LIMIT_EXCEEDED", q, r.status, r.body)
			}
		}
		for _, q := range []string{page(100, "id grade"), page(1, "text")} {
			if r := e.do(t, tok, q, nil); r.code() != "" {
				t.Errorf("%s: %d %.300s, want data", q, r.status, r.body)
			}
		}
	})
}

// A response past the text budget is one error, however many strings were
// refused: each refusal adding an error would refill the response it
// bounds (40 aliases of a page of quotes made 873,665 errors, 186 MB).
func TestResponseTextLimitIsOneError(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, acct := e.MustAccount("")
	a := mustBigAnalysis(t, e, acct.ID, 2000, 1000) // 4 MB of quotes and explanations
	var q strings.Builder
	q.WriteString("query($id: ID!) {")
	for i := range 40 {
		fmt.Fprintf(&q, " a%d: analysis(id: $id) { findings { quote explanation guidance } }", i)
	}
	r := e.do(t, tok, q.String()+" }", map[string]any{"id": a.ID})
	if len(r.Errors) != 1 || r.code() != "RESPONSE_TOO_LARGE" || string(r.Data) != "null" || len(r.body) > 1000 {
		t.Errorf("40 aliases of 4 MB of findings: %d errors, code %q, %d bytes, data %.100s; want one RESPONSE_TOO_LARGE and no data",
			len(r.Errors), r.code(), len(r.body), r.Data)
	}
	// Within the budget the strings are all there.
	var one struct {
		A struct{ Findings []struct{ Quote string } }
	}
	e.mustData(t, tok, `query($id: ID!) { a: analysis(id: $id) { findings { quote } } }`, map[string]any{"id": a.ID}, &one)
	if len(one.A.Findings) != 2000 || len(one.A.Findings[1999].Quote) != 1000 {
		t.Errorf("one alias: %d findings, want 2000 with their quotes", len(one.A.Findings))
	}
}

// Lists count against the budget by their elements, not only their
// strings: 40 aliases of 20,000 findings' one-byte categories built 800,000
// elements before a string refused them (1.1 GB for 40 aliases of a real
// analysis's findings), and are refused now; one alias is answered whole.
func TestResponseTextLimitCountsListElements(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, acct := e.MustAccount("")
	a := mustBigAnalysis(t, e, acct.ID, 20_000, 1)
	var q strings.Builder
	q.WriteString("query($id: ID!) {")
	for i := range 40 {
		fmt.Fprintf(&q, " a%d: analysis(id: $id) { findings { category } }", i)
	}
	r := e.do(t, tok, q.String()+" }", map[string]any{"id": a.ID})
	if len(r.Errors) != 1 || r.code() != "RESPONSE_TOO_LARGE" || string(r.Data) != "null" {
		t.Errorf("40 aliases of 20,000 findings: %d errors, code %q, %d bytes; want one RESPONSE_TOO_LARGE and no data", len(r.Errors), r.code(), len(r.body))
	}
	var one struct {
		A struct{ Findings []struct{ Category string } }
	}
	e.mustData(t, tok, `query($id: ID!) { a: analysis(id: $id) { findings { category } } }`, map[string]any{"id": a.ID}, &one)
	if len(one.A.Findings) != 20_000 {
		t.Errorf("one alias: %d findings, want 20,000", len(one.A.Findings))
	}
}

// mustBigAnalysis stores an analysis of n findings, each quote and
// explanation size bytes long.
func mustBigAnalysis(t *testing.T, e *env, accountID string, n, size int) *app.Analysis {
	t.Helper()
	a := &app.Analysis{ID: "6f1c1f8e-0000-4000-8000-0000000b16a2", Grade: "C", Score: 40, Disclaimer: app.Disclaimer,
		Source:    app.Source{Title: "Many", DocumentType: "terms", Language: "en"},
		CreatedAt: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), Text: "text"}
	for range n {
		a.Findings = append(a.Findings, app.Finding{Category: "x", Severity: "bad", Title: "t",
			Quote: strings.Repeat("q", size), Explanation: strings.Repeat("e", size)})
	}
	if err := e.Store.CreateAnalysis(t.Context(), accountID, nil, a); err != nil {
		t.Fatal(err)
	}
	return a
}

// Errors never echo a request's input beyond a short excerpt, whatever the
// body holds; the usage log keeps at most a short line of each.
func TestErrorsQuoteShort(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, _ := e.MustAccount("")
	long := strings.Repeat("x", 1<<20)
	query := func(q string, vars map[string]any) string {
		b, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
		return string(b)
	}
	for name, c := range map[string]struct{ body, code string }{
		"a JSON array":           {`["` + long + `"]`, "INVALID"},
		"a JSON string":          {`"` + long + `"`, "INVALID"},
		"a query that is a list": {`{"query": ["` + long + `"]}`, "INVALID"},
		"a long field name":      {query("{ "+long+" }", nil), "GRAPHQL_VALIDATION_FAILED"},
		"a long unexpected name": {query("{ viewer { id } } "+long, nil), "GRAPHQL_PARSE_FAILED"},
		"a long string value":    {query(`{ usage(days: "`+long+`") { date } }`, nil), "GRAPHQL_VALIDATION_FAILED"},
		"a variable's long key":  {query(`mutation($in: AnalyzeInput!) { analyze(input: $in) { id } }`, map[string]any{"in": map[string]any{long: 1}}), "GRAPHQL_VALIDATION_FAILED"},
		"a key twice, long":      {`{"query": "{ viewer { id } }", "variables": {"` + long[:1<<19] + `": 1, "` + long[:1<<19] + `": 2}}`, "INVALID"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		var res response
		_ = json.Unmarshal(rec.Body.Bytes(), &res)
		if rec.Body.Len() > 600 || res.code() != c.code {
			t.Errorf("%s: %d, %d bytes %.200s, want a short %s error", name, rec.Code, rec.Body.Len(), rec.Body.String(), c.code)
		}
	}
	e.Flush()
	st, err := e.Svc.Usage(e.Ctx(tok), nil)
	if err != nil || len(st.RecentErrors) == 0 {
		t.Fatalf("recentErrors: %+v %v", st, err)
	}
	for _, re := range st.RecentErrors {
		if len([]rune(re.Error)) > app.MaxStoredError+1 || bytes.Contains([]byte(re.Error), []byte(strings.Repeat("x", 100))) {
			t.Errorf("stored error of %d characters: %.100s", len(re.Error), re.Error)
		}
	}
}

// introspectionQuery is GraphiQL's (graphql-js getIntrospectionQuery with
// descriptions, specifiedByURL and deprecated input values).
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives {
      name
      description
      isRepeatable
      locations
      args(includeDeprecated: true) { ...InputValue }
    }
  }
}
fragment FullType on __Type {
  kind
  name
  description
  specifiedByURL
  fields(includeDeprecated: true) {
    name
    description
    args(includeDeprecated: true) { ...InputValue }
    type { ...TypeRef }
    isDeprecated
    deprecationReason
  }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) {
    name
    description
    isDeprecated
    deprecationReason
  }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue {
  name
  description
  type { ...TypeRef }
  defaultValue
  isDeprecated
  deprecationReason
}
fragment TypeRef on __Type {
  kind
  name
  ofType {
    kind
    name
    ofType {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}`

// A request member of the wrong JSON type is named with the JSON it must
// be, in REST's words (middleware.JSONKind).
func TestWrongTypeSaysWhatItMustBe(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	tok, _ := e.MustAccount("")
	for body, want := range map[string]string{
		`{"query": 1}`: "invalid request: query must be a string",
		`{"query": "{ viewer { id } }", "variables": []}`: "invalid request: variables must be an object",
	} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		var res response
		_ = json.Unmarshal(rec.Body.Bytes(), &res)
		if rec.Code != http.StatusBadRequest || res.code() != "INVALID" || res.Errors[0].Message != want {
			t.Errorf("%s: %d %s, want 400 INVALID %q", body, rec.Code, rec.Body, want)
		}
	}
}

// analysisReads counts the store's reads of single analyses, and the parts
// each asked for.
type analysisReads struct {
	apptest.Store
	mu    sync.Mutex
	parts []app.AnalysisParts
}

func (s *analysisReads) FindAnalysis(ctx context.Context, accountID, id string, parts app.AnalysisParts) (*app.Analysis, error) {
	s.mu.Lock()
	s.parts = append(s.parts, parts)
	s.mu.Unlock()
	return s.Store.FindAnalysis(ctx, accountID, id, parts)
}

func (s *analysisReads) take() []app.AnalysisParts {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.parts
	s.parts = nil
	return out
}

// Aliases of analysis(id) read the row once, and only the columns the
// selection needs: 100 aliases of { grade } read one grade, not 100 copies
// of the findings and the text.
func TestAnalysisAliasesReadOnce(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		reads := &analysisReads{}
		e := newEnv(t, d, options{wrap: func(s apptest.Store) apptest.Store { reads.Store = s; return reads }})
		tok, acct := e.MustAccount("")
		a := mustBigAnalysis(t, e, acct.ID, 200, 100)
		vars := map[string]any{"id": a.ID}
		aliases := func(n int, sel string) string {
			var q strings.Builder
			q.WriteString("query($id: ID!) {")
			for i := range n {
				fmt.Fprintf(&q, " a%d: analysis(id: $id) { %s }", i, sel)
			}
			return q.String() + " }"
		}
		var got map[string]struct{ Grade string }
		e.mustData(t, tok, aliases(100, "grade"), vars, &got)
		if len(got) != 100 || got["a99"].Grade != "C" {
			t.Errorf("100 aliases of grade: %v", got)
		}
		if r := reads.take(); len(r) != 1 || r[0] != (app.AnalysisParts{}) {
			t.Errorf("100 aliases of grade: reads %v, want one of the columns only", r)
		}
		for _, c := range []struct {
			sel  string
			want app.AnalysisParts
		}{
			{"id score", app.AnalysisParts{}},
			{"findings { quote }", app.AnalysisParts{Body: true}},
			{"source { title } text", app.AllParts},
			{"text", app.AnalysisParts{Text: true}},
		} {
			e.mustData(t, tok, aliases(3, c.sel), vars, &map[string]any{})
			if r := reads.take(); len(r) != 1 || r[0] != c.want {
				t.Errorf("3 aliases of %s: reads %v, want one of %+v", c.sel, r, c.want)
			}
		}
		// Aliases asking for more than the first read again, with both.
		var mixed struct{ A, B struct{ Grade, Text string } }
		e.mustData(t, tok, `query($id: ID!) { a: analysis(id: $id) { grade } b: analysis(id: $id) { grade text } }`, vars, &mixed)
		if mixed.A.Grade != "C" || mixed.B.Text != "text" {
			t.Errorf("mixed aliases: %+v", mixed)
		}
		if r := reads.take(); len(r) > 2 {
			t.Errorf("mixed aliases: reads %v, want at most two", r)
		}
		// Another id, or none, is not found, once per alias's error.
		r := e.do(t, tok, aliases(2, "grade"), map[string]any{"id": "6f1c1f8e-0000-4000-8000-00000000ffff"})
		if r.code() != "NOT_FOUND" || len(reads.take()) != 1 {
			t.Errorf("an unknown id: %s", r.body)
		}
	})
}
