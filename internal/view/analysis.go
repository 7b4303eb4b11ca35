package view

import (
	"github.com/clausewatch/clausewatch/internal/app"
)

// Analysis is an analysis as the contract writes it (decisions.md,
// "Analysis result", plus text): POST /api/analyze, MCP's analyze tool and
// `clausewatch analyze --json` answer this same shape.
type Analysis struct {
	ID          string      `json:"id"`
	Source      Source      `json:"source"`
	Grade       string      `json:"grade"`
	Score       int         `json:"score"`
	Basis       *Basis      `json:"basis"` // null on analyses stored before it
	Why         string      `json:"why"`   // "" on analyses stored before it
	Cases       []Case      `json:"cases"`
	Findings    []Finding   `json:"findings"`
	Guidance    []string    `json:"guidance"`
	Readability Readability `json:"readability"`
	Coverage    float64     `json:"coverage"`
	Confidence  string      `json:"confidence"` // "" on analyses stored before it
	AI          *AISummary  `json:"ai"`
	AIError     string      `json:"aiError,omitempty"`
	Disclaimer  string      `json:"disclaimer"`
	CreatedAt   Time        `json:"createdAt"`
	Text        string      `json:"text"`
}

// Source is the document an analysis read.
type Source struct {
	URL          string `json:"url,omitempty"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
}

// Finding is one finding of an analysis, with its quote.
type Finding struct {
	Category    string  `json:"category"`
	Severity    string  `json:"severity"`
	Title       string  `json:"title"`
	Explanation string  `json:"explanation"`
	Guidance    string  `json:"guidance"`
	Quote       string  `json:"quote"`
	Start       int     `json:"start"`
	End         int     `json:"end"`
	Confidence  float64 `json:"confidence"`
	Case        string  `json:"case,omitempty"`
}

// Basis counts the cases a grade rests on.
type Basis struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

// Case is a ToS;DR case found in a document.
type Case struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"`
	Category string `json:"category,omitempty"`
}

// Grading is a batch's overall grade.
type Grading struct {
	Grade string `json:"grade"`
	Score int    `json:"score"`
	Basis Basis  `json:"basis"`
	Cases []Case `json:"cases"`
}

// NewCase maps a case.
func NewCase(c app.Case) Case { return Case(c) }

// Readability is how hard a document is to read.
type Readability struct {
	FleschKincaidGrade float64 `json:"fleschKincaidGrade"`
	ReadingMinutes     float64 `json:"readingMinutes"`
}

// AISummary is the optional AI summary of an analysis.
type AISummary struct {
	Summary string   `json:"summary"`
	Model   string   `json:"model"`
	Quotes  []string `json:"quotes,omitempty"`
}

// NewAnalysis maps an analysis to its response. Source, findings,
// readability and summary are conversions: their fields match app's one
// for one, so a field added on one side only stops the build.
func NewAnalysis(a *app.Analysis) *Analysis {
	res := &Analysis{
		ID: a.ID, Source: Source(a.Source), Grade: a.Grade, Score: a.Score,
		Cases:    append([]Case{}, MapAll(a.Cases, NewCase)...), // [] on old rows
		Findings: MapAll(a.Findings, func(f app.Finding) Finding { return Finding(f) }),
		Guidance: a.Guidance, Readability: Readability(a.Readability), Coverage: a.Coverage, Confidence: a.Confidence, AIError: a.AIError,
		Disclaimer: a.Disclaimer, CreatedAt: Time(a.CreatedAt), Text: a.Text, Why: a.Why(),
	}
	if a.AI != nil {
		ai := AISummary(*a.AI)
		res.AI = &ai
	}
	if a.Basis != nil {
		b := Basis(*a.Basis)
		res.Basis = &b
	}
	return res
}

// BatchResult is POST /api/analyze/batch's answer (and MCP's analyze_batch).
type BatchResult struct {
	Results []BatchItem `json:"results"`
	Overall *Grading    `json:"overall"` // null when every item failed
}

func newGrading(g *app.Grading) *Grading {
	if g == nil {
		return nil
	}
	return &Grading{Grade: g.Grade, Score: g.Score, Basis: Basis(g.Basis), Cases: MapAll(g.Cases, NewCase)}
}

// BatchItem is one item of a batch: its analysis, or its error.
type BatchItem struct {
	Index    int        `json:"index"`
	OK       bool       `json:"ok"`
	Analysis *Analysis  `json:"analysis,omitempty"`
	Error    *ItemError `json:"error,omitempty"`
}

// ItemError says why one batch item failed.
type ItemError struct {
	Code    app.Code `json:"code"`
	Message string   `json:"message"`
}

func newBatchItem(it app.BatchItem) BatchItem {
	res := BatchItem{Index: it.Index, OK: it.OK}
	if it.Analysis != nil {
		res.Analysis = NewAnalysis(it.Analysis)
	}
	if it.Error != nil {
		e := ItemError(*it.Error)
		res.Error = &e
	}
	return res
}

// NewBatchResult maps a batch's answer to its response.
func NewBatchResult(b *app.BatchResult) BatchResult {
	return BatchResult{Results: MapAll(b.Results, newBatchItem), Overall: newGrading(b.Overall)}
}
