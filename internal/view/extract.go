package view

import (
	"github.com/clausewatch/clausewatch/internal/app"
)

// Extraction is the body of POST /api/extract (and of `clausewatch extract --json`).
type Extraction struct {
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

// NewExtraction maps an extraction to its body.
func NewExtraction(x *app.Extraction) Extraction {
	return Extraction{URL: x.URL, FinalURL: x.FinalURL, Title: x.Title, DocumentType: x.DocumentType,
		Language: x.Language, Text: x.Text, Markdown: x.Markdown, WordCount: x.WordCount,
		ContentHash: x.ContentHash, FetchedAt: Time(x.FetchedAt)}
}
