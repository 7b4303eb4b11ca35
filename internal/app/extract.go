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
	URL          string
	FinalURL     string
	Title        string
	DocumentType string
	Language     string
	Text         string
	Markdown     string
	WordCount    int
	ContentHash  string
	FetchedAt    time.Time
}

// Extract fetches a public URL and returns its readable text. It needs the
// extract scope and consumes one scan, given back if the fetch or the
// extraction fails, unless the work was done (WorkDone).
func (s *Service) Extract(ctx context.Context, in ExtractInput) (*Extraction, error) {
	if _, err := Authorize(ctx, OpExtract); err != nil {
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
	d, err := s.ReadDocument(ctx, fetch.Request{URL: in.URL})
	if err != nil {
		if !WorkDone(err) {
			c.refund(ctx)
		}
		return nil, err
	}
	return d.Extraction(), nil
}

// WorkDone reports a refusal that came after the work it refuses was done:
// a page fetched and read whole, then found past a bound of the work we
// spend on one (its text over MaxTextChars, its HTML past the extractor's
// size or node budget, a PDF past its bounds). Such a refusal keeps its
// scan, wherever the scan was drawn, so asking again and again for a
// costly refusal is not free; every other failure gives the scan back.
func WorkDone(err error) bool { return errors.Is(err, extract.ErrTooComplex) }

// Extraction is the document as POST /api/extract answers it.
func (d *Document) Extraction() *Extraction {
	x := d.Extracted
	return &Extraction{
		URL: d.URL, FinalURL: d.FinalURL, Title: x.Title, DocumentType: x.DocumentType, Language: x.Language,
		Text: x.Text, Markdown: x.Markdown, WordCount: x.WordCount, ContentHash: x.ContentHash,
		FetchedAt: d.FetchedAt.UTC(),
	}
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
	case errors.Is(err, extract.ErrTooComplex):
		return &Error{Code: CodeUnreadable, Message: err.Error(), Err: err}
	case errors.Is(err, extract.ErrUnsupported):
		return &Error{Code: CodeUnreadable, Message: "not a document we can read (HTML, PDF or plain text)", Err: err}
	default:
		return Internal(err)
	}
}
