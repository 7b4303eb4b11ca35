package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
)

// ExtractionResponse is the body of POST /api/extract (and of `clausewatch extract --json`).
type ExtractionResponse struct {
	URL          string `json:"url"`
	FinalURL     string `json:"finalUrl"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	Text         string `json:"text"`
	Markdown     string `json:"markdown"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
	FetchedAt    Time   `json:"fetchedAt"`
}

// NewExtractionResponse maps an extraction to its body.
func NewExtractionResponse(x *app.Extraction) ExtractionResponse {
	return ExtractionResponse{URL: x.URL, FinalURL: x.FinalURL, Title: x.Title, DocumentType: x.DocumentType,
		Language: x.Language, Text: x.Text, Markdown: x.Markdown, WordCount: x.WordCount,
		ContentHash: x.ContentHash, FetchedAt: Time(x.FetchedAt)}
}

func (s *server) handleExtract(w http.ResponseWriter, r *http.Request) error {
	var in app.ExtractInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	x, err := s.svc.Extract(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, NewExtractionResponse(x))
}
