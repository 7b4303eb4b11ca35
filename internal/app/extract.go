package app

import (
	"context"
	"errors"
	"time"

	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
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
	FetchedAt    Timestamp `json:"fetchedAt"`
}

// Extract fetches a public URL and returns its readable text. It needs the
// extract scope and consumes one scan, given back if the fetch or the
// extraction fails.
func (s *Service) Extract(ctx context.Context, in ExtractInput) (*Extraction, error) {
	if err := Require(ctx, ScopeOf(OpExtract)); err != nil {
		return nil, err
	}
	if err := s.validate(in); err != nil {
		return nil, err
	}
	if err := s.fetcher.Check(in.URL); err != nil {
		return nil, fetchError(err) // an invalid URL never holds a scan, even for a moment
	}
	c, err := s.chargeScans(ctx, 1, 0)
	if err != nil {
		return nil, err
	}
	x, err := s.fetchDocument(ctx, in.URL)
	if err != nil {
		c.refund(ctx)
		return nil, err
	}
	return x, nil
}

// fetchDocument fetches and extracts one URL; the one path every URL takes.
func (s *Service) fetchDocument(ctx context.Context, url string) (*Extraction, error) {
	res, err := s.fetcher.Fetch(ctx, fetch.Request{URL: url})
	if err != nil {
		return nil, fetchError(err)
	}
	doc, err := extract.Extract(res.Body, res.ContentType, res.FinalURL)
	if err != nil {
		return nil, extractError(err)
	}
	return NewExtraction(url, res.FinalURL, doc, res.FetchedAt), nil
}

// NewExtraction describes an extracted document fetched from url (finally
// from finalURL after redirects) at fetchedAt.
func NewExtraction(url, finalURL string, doc *extract.Document, fetchedAt time.Time) *Extraction {
	return &Extraction{
		URL: url, FinalURL: finalURL, Title: doc.Title, DocumentType: doc.DocumentType, Language: doc.Language,
		Text: doc.Text, Markdown: doc.Markdown, WordCount: doc.WordCount, ContentHash: doc.ContentHash,
		FetchedAt: Timestamp{fetchedAt.UTC()},
	}
}

// Source is what an analysis of the extraction reports; a title given by
// the caller wins over the document's own.
func (x *Extraction) Source(title string) Source {
	if title == "" {
		title = x.Title
	}
	return Source{URL: x.URL, Title: title, DocumentType: x.DocumentType, Language: x.Language, WordCount: x.WordCount, ContentHash: x.ContentHash}
}

// fetchError maps a fetch failure to the statuses decisions.md fixes: not
// allowed 400, upstream 502, timeout 504, unreadable 422.
func fetchError(err error) error {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		if errors.Is(err, context.DeadlineExceeded) {
			return &Error{Code: CodeTimeout, Message: "the document's server did not answer in time", Err: err}
		}
		return Internal(err)
	}
	code := map[fetch.Kind]Code{
		fetch.KindInvalid:    CodeInvalid,
		fetch.KindUpstream:   CodeUpstream,
		fetch.KindTimeout:    CodeTimeout,
		fetch.KindUnreadable: CodeUnreadable,
		fetch.KindTooLarge:   CodeUnreadable,
	}[fe.Kind]
	if code == "" {
		code = CodeUpstream
	}
	e := &Error{Code: code, Message: fe.Msg, Err: err}
	if code == CodeInvalid {
		e.Fields = []FieldError{{Field: "url", Message: fe.Msg}}
	}
	return e
}

func extractError(err error) error {
	switch {
	case errors.Is(err, extract.ErrNoText):
		return &Error{Code: CodeUnreadable, Message: "no extractable text", Err: err}
	case errors.Is(err, extract.ErrUnsupported):
		return &Error{Code: CodeUnreadable, Message: "not a document we can read (HTML, PDF or plain text)", Err: err}
	default:
		return Internal(err)
	}
}
