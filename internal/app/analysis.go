package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/llm"
)

// AnalyzeInput is the body of POST /api/analyze and one batch item: exactly
// one of URL and Text.
type AnalyzeInput struct {
	URL          string `json:"url,omitempty" validate:"omitempty,max=2048"`
	Text         string `json:"text,omitempty"` // at most MaxTextChars, checked by checkAnalyzeInput
	Title        string `json:"title,omitempty" validate:"omitempty,max=300"`
	DocumentType string `json:"documentType,omitempty" validate:"omitempty,oneof=terms privacy"`
	AI           bool   `json:"ai,omitempty"`
}

// BatchInput is the body of POST /api/analyze/batch.
type BatchInput struct {
	Items []AnalyzeInput `json:"items"` // 1 to MaxBatch, checked by AnalyzeBatch
}

// MaxBatch is the most items one batch may hold (interface.md 8).
const MaxBatch = 5

// Source describes what was analyzed.
type Source struct {
	URL          string
	Title        string
	DocumentType string
	Language     string
	WordCount    int
	ContentHash  string
}

// Finding is one clause worth the reader's attention. It is app's own, so an
// engine change cannot reach the API or the stored analyses unnoticed.
type Finding struct {
	Category    string
	Severity    string // blocker | bad | neutral | good
	Title       string
	Explanation string
	Guidance    string
	Quote       string
	Start, End  int // Unicode code point offsets into Analysis.Text
	Confidence  float64
	Case        string // the ToS;DR case the finding is an instance of, or ""
}

// Case is a ToS;DR case found in a document: the practice a finding's Case
// names, its rating (blocker, bad, neutral or good) and our category.
type Case struct {
	Title, Rating, Category string
}

// GradeBasis is what a grade is computed from: the distinct cases found,
// counted by rating, and the balance good - bad - 3 x blocker (ToS;DR's
// rule; see internal/analyze/README-grade.md).
type GradeBasis struct {
	Good, Neutral, Bad, Blocker, Balance int
}

// Grading is a grade with what it rests on: a batch's overall grade.
type Grading struct {
	Grade string
	Score int
	Basis GradeBasis
	Cases []Case
}

// Why explains the grade in plain words (analyze.Explain): the clauses
// that decided it, what was in the document's favour, what would change
// it, and the rule last. The API sends it so the portal restates nothing;
// the command line and the MCP tool print it. Empty on an analysis stored
// before grades had a basis, or graded by an earlier rule whose letter
// its findings no longer give (the text would explain another grade).
func (a *Analysis) Why() string {
	v := analyze.Judge(analyze.GradeCuts, engineFindings(a.Findings))
	if a.Basis == nil || v.Grade != a.Grade {
		return ""
	}
	return analyze.Explain(v, analyze.GradeCuts).String()
}

// Readability of the analyzed text.
type Readability struct {
	FleschKincaidGrade float64
	ReadingMinutes     float64
}

// AISummary is the language model's summary, its quotes verified verbatim.
type AISummary struct {
	Summary string
	Model   string
	Quotes  []string
}

// The engines' results become app's types here and only here. Conversions,
// not field copies: if an engine's shape changes, this stops compiling.
func findingsOf(in []analyze.Finding) []Finding {
	out := make([]Finding, len(in))
	for i, f := range in {
		out[i] = Finding(f)
	}
	return out
}

func engineFindings(in []Finding) []analyze.Finding {
	out := make([]analyze.Finding, len(in))
	for i, f := range in {
		out[i] = analyze.Finding(f)
	}
	return out
}

func casesOf(in []analyze.Case) []Case {
	out := make([]Case, len(in))
	for i, c := range in {
		out[i] = Case(c)
	}
	return out
}

// overallGrading grades a batch's analyses together, each case counted
// once, as ToS;DR grades a service from all its documents; nil without
// any.
func overallGrading(items []BatchItem) *Grading {
	var docs [][]analyze.Finding
	for _, it := range items {
		if it.Analysis != nil {
			docs = append(docs, engineFindings(it.Analysis.Findings))
		}
	}
	if len(docs) == 0 {
		return nil
	}
	v := analyze.Judge(analyze.GradeCuts, docs...)
	return &Grading{Grade: v.Grade, Score: v.Score, Basis: GradeBasis(v.Basis), Cases: casesOf(v.Cases)}
}
func aiSummaryOf(s llm.Summary) *AISummary {
	a := AISummary(s)
	return &a
}

// Disclaimer goes with every analysis.
const Disclaimer = "Informational only; not legal advice."

// Analysis is the review guidance for one document (decisions.md, "Analysis result").
type Analysis struct {
	ID     string
	Source Source
	Grade  string
	Score  int
	// Basis and Cases are what Grade rests on; Basis is nil, and Cases
	// empty, on analyses stored before grades had a basis.
	Basis       *GradeBasis
	Cases       []Case
	Findings    []Finding
	Guidance    []string
	Readability Readability
	// Coverage (0..1, the share of the text read as clauses) and Confidence
	// (low, medium or high: how far the grade can be trusted) are zero on
	// analyses stored before them.
	Coverage   float64
	Confidence string
	AI         *AISummary
	AIError    string
	Disclaimer string
	CreatedAt  time.Time
	// Text is what the findings' start and end count into (code points):
	// the extracted text of a URL, or the text as given.
	Text string
}

// BatchItem is one result of a batch, in request order.
type BatchItem struct {
	Index    int
	OK       bool
	Analysis *Analysis
	Error    *ItemError
}

// ItemError says why one batch item failed.
type ItemError struct {
	Code    Code
	Message string
}

// BatchResult is the answer of AnalyzeBatch.
type BatchResult struct {
	Results []BatchItem
	// Overall grades the union of the successful items' cases; nil when
	// every item failed.
	Overall *Grading
}

// Analyze analyzes a public URL or given text. It needs the analyze scope,
// takes one scan, and one AI unit with AI set; both come back if it fails
// (the scan not when the work was done: WorkDone).
func (s *Service) Analyze(ctx context.Context, in AnalyzeInput) (*Analysis, error) {
	if _, err := Authorize(ctx, OpAnalyze); err != nil {
		return nil, err
	}
	if err := s.checkAnalyzeInput(in); err != nil {
		return nil, err
	}
	c, err := s.chargeScans(ctx, 1, boolInt(in.AI))
	if err != nil {
		return nil, err
	}
	return s.analyzeOne(ctx, c, in)
}

// AnalyzeBatch analyzes 1 to 5 items. The batch is admitted whole or not at
// all; items run concurrently and fail one by one, each giving back its scan.
func (s *Service) AnalyzeBatch(ctx context.Context, in BatchInput) (*BatchResult, error) {
	if _, err := Authorize(ctx, OpAnalyzeBatch); err != nil {
		return nil, err
	}
	if len(in.Items) == 0 || len(in.Items) > MaxBatch {
		return nil, &Error{Code: CodeInvalid, Message: "a batch holds 1 to 5 items",
			Fields: []FieldError{{Field: "items", Message: "must have 1 to 5 items"}}}
	}
	ai := 0
	for i, it := range in.Items {
		if err := s.checkAnalyzeInput(it); err != nil {
			return nil, fieldsUnder(err, "items["+strconv.Itoa(i)+"].")
		}
		if it.AI {
			ai++
		}
	}
	c, err := s.chargeScans(ctx, len(in.Items), ai)
	if err != nil {
		return nil, err
	}
	res := &BatchResult{Results: make([]BatchItem, len(in.Items))}
	sem := make(chan struct{}, 3) // fetches are slow, analysis is CPU: a small bound serves both
	var wg sync.WaitGroup
	for i, it := range in.Items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			a, err := s.analyzeOne(ctx, c, it)
			if err != nil {
				e := AsError(err)
				if e.Code == CodeInternal {
					s.log.Error("batch item failed", "index", i, "err", err)
				}
				res.Results[i] = BatchItem{Index: i, Error: &ItemError{Code: e.Code, Message: e.Message}}
				return
			}
			res.Results[i] = BatchItem{Index: i, OK: true, Analysis: a}
		}()
	}
	wg.Wait()
	res.Overall = overallGrading(res.Results)
	return res, nil
}

// checkAnalyzeInput validates one request.
func (s *Service) checkAnalyzeInput(in AnalyzeInput) error {
	if err := s.validate(in); err != nil {
		return err
	}
	hasURL, hasText := in.URL != "", strings.TrimSpace(in.Text) != ""
	if hasURL == hasText {
		return &Error{Code: CodeInvalid, Message: "give exactly one of url and text",
			Fields: []FieldError{{Field: "url", Message: "exactly one of url and text is required"}}}
	}
	if _, over := overTextLimit(in.Text); over {
		return &Error{Code: CodeInvalid, Message: "invalid request",
			Fields: []FieldError{{Field: "text", Message: "must be at most " + maxTextCharsText + " characters"}}}
	}
	if in.URL != "" {
		if err := s.fetcher.Check(in.URL); err != nil {
			return fetchError(err)
		}
	}
	if in.AI && s.llm == nil {
		return Errorf(CodeUnavailable, "AI summaries are not configured on this server; retry without \"ai\": true")
	}
	return nil
}

// fieldsUnder names err's fields as those of a batch item ("items[2].url").
func fieldsUnder(err error, prefix string) error {
	e := AsError(err)
	for i := range e.Fields {
		e.Fields[i].Field = prefix + e.Fields[i].Field
	}
	return e
}

// errNotLegal is the answer for a text with no sentence read as a clause:
// a letter would say it was read as terms (analyze.Result.Graded). Its body
// names the code, which 422 alone does not tell from an unreadable page.
var errNotLegal = &Error{Code: CodeNotLegal, Data: map[string]any{"code": string(CodeNotLegal)}, Message: "not a legal document: no sentence of this text reads as a clause of terms or a privacy policy (it may be a page of links, a heading or a few words), so it gets no grade"}

// AnalyzeText analyzes a text described by src: the analysis the API
// returns, before any AI summary and unsaved, or errNotLegal. It charges
// nothing; Analyze charges before it calls it (and gives the scan back on
// an error), the command line calls it as it is.
func (s *Service) AnalyzeText(text string, src Source) (*Analysis, error) {
	r := s.analyzer.Analyze(text, analyze.Options{DocumentType: src.DocumentType})
	if !r.Graded() {
		return nil, errNotLegal
	}
	basis := GradeBasis(r.Basis)
	a := &Analysis{
		ID: newID(), Source: src, Grade: r.Grade, Score: r.Score, Basis: &basis, Cases: casesOf(r.Cases),
		Findings: findingsOf(r.Findings), Guidance: r.Guidance,
		Readability: Readability(r.Readability), Coverage: r.Coverage, Confidence: r.Confidence, Disclaimer: Disclaimer, CreatedAt: s.now().Truncate(time.Millisecond),
		Text: text,
	}
	if a.Guidance == nil {
		a.Guidance = []string{}
	}
	return a, nil
}

// inAnalysisPlace runs f, an analysis of a text of n characters, once the
// places admit it; they bound the engine's work and memory however many
// requests and monitor checks come.
func (s *Service) inAnalysisPlace(ctx context.Context, n int, f func()) error {
	release, err := s.places.take(ctx, n)
	if err != nil {
		return err
	}
	defer release()
	f()
	return nil
}

// analyzeOne produces and stores one analysis paid from c, giving back its
// AI unit if it fails, and its scan unless the work was done (WorkDone). A failed AI summary leaves the analysis
// standing with AIError set, and gives back only the AI unit. A panic is an
// internal error like any other (a batch item's goroutine would otherwise
// end the process).
func (s *Service) analyzeOne(ctx context.Context, c *Charge, in AnalyzeInput) (*Analysis, error) {
	var a *Analysis
	err := catch(func() (err error) {
		a, err = s.produceAnalysis(ctx, in)
		return err
	})
	if err != nil {
		scans := 1
		if WorkDone(err) {
			scans = 0
		}
		c.refundPart(ctx, scans, boolInt(in.AI))
		return nil, err
	}
	if a.AIError != "" {
		c.refundPart(ctx, 0, 1) // the analysis stands; the failed summary costs nothing
	}
	return a, nil
}

// produceAnalysis fetches or takes the text, analyzes it, asks for the AI
// summary if wanted, and stores the result.
func (s *Service) produceAnalysis(ctx context.Context, in AnalyzeInput) (*Analysis, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(in.Title)
	text := in.Text
	var src Source
	if in.URL != "" {
		d, err := s.ReadDocument(ctx, fetch.Request{URL: in.URL})
		if err != nil {
			return nil, err
		}
		text = d.Extracted.Text
		src = d.Source(title)
	} else {
		src = TextSource(title, text)
	}
	if in.DocumentType != "" {
		src.DocumentType = in.DocumentType
	}
	var a *Analysis
	var notLegal error
	if err := s.inAnalysisPlace(ctx, len(text), func() { a, notLegal = s.AnalyzeText(text, src) }); err != nil {
		return nil, err
	}
	if notLegal != nil {
		return nil, notLegal
	}
	if in.AI {
		sum, err := s.llm.Summarize(ctx, llm.Input{Title: src.Title, DocumentType: src.DocumentType, Text: text, Findings: engineFindings(a.Findings)})
		if err != nil {
			a.AIError = aiError(err)
			s.log.Warn("AI summary failed", "err", err)
		} else {
			a.AI = aiSummaryOf(sum)
		}
	}
	var keyID *string
	if p.Key != nil {
		keyID = &p.Key.ID
	}
	if err := s.store.CreateAnalysis(ctx, p.Account.ID, keyID, a); err != nil {
		return nil, err
	}
	return a, nil
}

func aiError(err error) string {
	switch {
	case errors.Is(err, llm.ErrTimeout):
		return "the AI provider did not answer in time"
	case errors.Is(err, llm.ErrMalformed):
		return "the AI provider returned an answer that could not be used"
	default:
		return "the AI provider failed"
	}
}

// AnalysisParts says which parts of a stored analysis to read besides its
// ID, Grade and Score: Body is everything else but the text (source,
// findings, cases, AI summary, ...), Text the analyzed text. A stored
// analysis may hold megabytes of both; a reader asking for its grade
// should not pay for them.
type AnalysisParts struct {
	Body, Text bool
}

// AllParts reads a whole analysis.
var AllParts = AnalysisParts{Body: true, Text: true}

// Covers reports whether p reads everything q does.
func (p AnalysisParts) Covers(q AnalysisParts) bool {
	return (p.Body || !q.Body) && (p.Text || !q.Text)
}

// FindAnalysis returns the parts asked for of one of the caller's stored
// analyses.
func (s *Service) FindAnalysis(ctx context.Context, id string, parts AnalysisParts) (*Analysis, error) {
	p, err := Authorize(ctx, OpAnalyses)
	if err != nil {
		return nil, err
	}
	if !validID(id) {
		return nil, Errorf(CodeNotFound, "analysis not found")
	}
	return s.store.FindAnalysis(ctx, p.Account.ID, id, parts)
}

// AnalysisPage is one page of the caller's analyses, newest first.
type AnalysisPage struct {
	Analyses   []Analysis
	NextCursor *string
}

// AnalysisFilter selects a page of the caller's analyses.
type AnalysisFilter struct {
	Limit    *int   // 1 to 100; 20 when nil
	Cursor   string // a previous page's NextCursor; "" for the first page
	WithText bool   // also read each analysis's Text
}

// FindAnalyses pages through the caller's analyses, newest first.
func (s *Service) FindAnalyses(ctx context.Context, f AnalysisFilter) (*AnalysisPage, error) {
	p, err := Authorize(ctx, OpAnalyses)
	if err != nil {
		return nil, err
	}
	limit, after, err := pageArgs(f.Limit, f.Cursor, validID)
	if err != nil {
		return nil, err
	}
	list, err := s.store.FindAnalyses(ctx, p.Account.ID, after, limit+1, f.WithText)
	if err != nil {
		return nil, err
	}
	page := &AnalysisPage{}
	page.Analyses, page.NextCursor = trimPage(list, limit, func(a Analysis) (time.Time, string) { return a.CreatedAt, a.ID })
	return page, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
