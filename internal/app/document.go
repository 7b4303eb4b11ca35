package app

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// Document is one read of a document: the response as it came (the raw
// body, its content type, the final URL after redirects, the validators for
// the next conditional fetch) and what extraction made of it.
type Document struct {
	fetch.Response
	Extracted *extract.Document // nil when the server answered 304 Not Modified
}

// ReadDocument fetches a public URL through the SSRF-guarded fetcher and
// extracts it: the one way every URL is read. It charges nothing; Extract
// and Analyze charge before they call it, the command line calls it as it
// is. With req.ETag or req.LastModified set the fetch is conditional, and a
// 304 comes back with NotModified set and nothing extracted.
func (s *Service) ReadDocument(ctx context.Context, req fetch.Request) (*Document, error) {
	res, err := s.fetcher.Fetch(ctx, req)
	if err != nil {
		return nil, fetchError(err)
	}
	if res.NotModified {
		return &Document{Response: *res}, nil
	}
	d, err := s.ExtractDocument(*res)
	if err != nil {
		return nil, err
	}
	if n, over := overTextLimit(d.Extracted.Text); over {
		// A fetch's failure like a page too large to fetch, so a monitor's
		// check records it as too_large; refused past a bound with the
		// reading done, so it keeps its scan (WorkDone).
		return nil, fetchError(&fetch.Error{Kind: fetch.KindTooLarge, Code: fetch.CodeTooLarge,
			Msg: fmt.Sprintf("the document's text is %s characters, over the limit of %s", thousands(n), maxTextCharsText),
			Err: extract.ErrTooComplex})
	}
	return d, nil
}

// MaxTextChars is the most text, in Unicode code points, the service takes
// from any source: a text given to analyze, and the extracted text of every
// page read (extracted, analyzed or monitored). It bounds the analysis's
// memory and time, the stored versions and the responses.
const MaxTextChars = 1_500_000

var maxTextCharsText = thousands(MaxTextChars)

// overTextLimit reports whether s is over MaxTextChars, and then its length
// in code points: the one test of the limit for a given text and an
// extracted one. A text of at most MaxTextChars bytes is under it uncounted.
func overTextLimit(s string) (chars int, over bool) {
	if len(s) <= MaxTextChars {
		return 0, false
	}
	n := utf8.RuneCountInString(s)
	return n, n > MaxTextChars
}

// thousands writes n with comma separators, as the README does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Extractor reads a document's bytes: an *extract.Extractor, or in tests
// one with other rules (an extractor upgrade). Version names its rules.
type Extractor interface {
	Extract(raw []byte, contentType, pageURL string) (*extract.Document, error)
	Version() string
}

// ExtractDocument extracts a response's body without the network: one just
// fetched, one stored earlier, or a file read as one (its FinalURL resolves
// the links).
func (s *Service) ExtractDocument(res fetch.Response) (*Document, error) {
	doc, err := s.extractor.Extract(res.Body, res.ContentType, res.FinalURL)
	if err != nil {
		return nil, extractError(err)
	}
	return &Document{Response: res, Extracted: doc}, nil
}

// Source is what an analysis of the document reports; a title given by the
// caller wins over the document's own.
func (d *Document) Source(title string) Source {
	return sourceOf(d.URL, title, d.Extracted.Description)
}

// TextSource is what an analysis of a text given as it is reports: the same
// description a page gets, under the caller's title.
func TextSource(title, text string) Source {
	return sourceOf("", title, extract.Describe(title, text))
}

func sourceOf(url, title string, d extract.Description) Source {
	if title == "" {
		title = d.Title
	}
	return Source{URL: url, Title: title, DocumentType: d.DocumentType, Language: d.Language, WordCount: d.WordCount, ContentHash: d.ContentHash}
}
