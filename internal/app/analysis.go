package app

import (
	"context"
	"time"
)

// AnalyzeInput is the body of POST /api/analyze and one batch item: exactly
// one of URL and Text.
type AnalyzeInput struct {
	URL          string `json:"url,omitempty" validate:"omitempty,max=2048"`
	Text         string `json:"text,omitempty" validate:"omitempty,max=1500000"`
	Title        string `json:"title,omitempty" validate:"omitempty,max=300"`
	DocumentType string `json:"documentType,omitempty" validate:"omitempty,oneof=terms privacy"`
	AI           bool   `json:"ai,omitempty"`
}

// BatchInput is the body of POST /api/analyze/batch.
type BatchInput struct {
	Items []AnalyzeInput `json:"items" validate:"required,min=1,max=5,dive"`
}

// Source describes what was analyzed.
type Source struct {
	URL          string `json:"url,omitempty"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
}

// Finding is one clause worth the reader's attention.
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
}

// Readability scores the text's difficulty.
type Readability struct {
	FleschKincaidGrade float64 `json:"fleschKincaidGrade"`
	ReadingMinutes     float64 `json:"readingMinutes"`
}

// AISummary is the optional language-model summary.
type AISummary struct {
	Summary string   `json:"summary"`
	Model   string   `json:"model"`
	Quotes  []string `json:"quotes"`
}

// Disclaimer goes with every analysis.
const Disclaimer = "Informational only; not legal advice."

// Analysis is the review guidance for one document (decisions.md, "Analysis result").
type Analysis struct {
	ID          string      `json:"id"`
	Source      Source      `json:"source"`
	Grade       string      `json:"grade"`
	Score       int         `json:"score"`
	Findings    []Finding   `json:"findings"`
	Guidance    []string    `json:"guidance"`
	Readability Readability `json:"readability"`
	AI          *AISummary  `json:"ai"`
	AIError     string      `json:"aiError,omitempty"`
	Disclaimer  string      `json:"disclaimer"`
	CreatedAt   time.Time   `json:"createdAt"`
}

// BatchItem is one result of a batch, in request order.
type BatchItem struct {
	Index    int        `json:"index"`
	OK       bool       `json:"ok"`
	Analysis *Analysis  `json:"analysis,omitempty"`
	Error    *ItemError `json:"error,omitempty"`
}

// ItemError says why one batch item failed.
type ItemError struct {
	Code    Code   `json:"code"`
	Status  int    `json:"-"`
	Message string `json:"message"`
}

// BatchResult is the answer of AnalyzeBatch.
type BatchResult struct {
	Results []BatchItem `json:"results"`
}

// Analyze analyzes a public URL or given text. It needs the analyze scope,
// consumes one scan, and one AI unit with AI set.
func (s *Service) Analyze(ctx context.Context, in AnalyzeInput) (*Analysis, error) {
	if err := Require(ctx, ScopeAnalyze); err != nil {
		return nil, err
	}
	if err := s.validate(in); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "analysis is not available yet")
}

// AnalyzeBatch analyzes 1 to 5 items, admitted whole or not at all.
func (s *Service) AnalyzeBatch(ctx context.Context, in BatchInput) (*BatchResult, error) {
	if err := Require(ctx, ScopeAnalyze); err != nil {
		return nil, err
	}
	if err := s.validate(in); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "analysis is not available yet")
}

// FindAnalysis returns one of the caller's stored analyses.
func (s *Service) FindAnalysis(ctx context.Context, id string) (*Analysis, error) {
	if err := Require(ctx, ScopeAnalyze); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "analysis is not available yet")
}

// AnalysisPage is one page of the caller's analyses, newest first.
type AnalysisPage struct {
	Analyses   []Analysis `json:"analyses"`
	NextCursor *string    `json:"nextCursor"`
}

// FindAnalyses pages through the caller's analyses.
func (s *Service) FindAnalyses(ctx context.Context, limit int, cursor string) (*AnalysisPage, error) {
	if err := Require(ctx, ScopeAnalyze); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "analysis is not available yet")
}
