package app

import (
	"context"
	"time"
)

// ExtractInput is the body of POST /api/extract.
type ExtractInput struct {
	URL string `json:"url" validate:"required,max=2048"`
}

// Extraction is the readable text of one public document.
type Extraction struct {
	URL          string    `json:"url"`
	FinalURL     string    `json:"finalUrl"`
	Title        string    `json:"title"`
	DocumentType string    `json:"documentType"`
	Language     string    `json:"language"`
	Text         string    `json:"text"`
	Markdown     string    `json:"markdown"`
	WordCount    int       `json:"wordCount"`
	ContentHash  string    `json:"contentHash"`
	FetchedAt    time.Time `json:"fetchedAt"`
}

// Extract fetches a public URL and returns its readable text. It needs the
// extract scope and consumes one scan.
func (s *Service) Extract(ctx context.Context, in ExtractInput) (*Extraction, error) {
	if err := Require(ctx, ScopeExtract); err != nil {
		return nil, err
	}
	if err := s.validate(in); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "extraction is not available yet")
}
