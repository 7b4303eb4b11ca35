// Package extract turns the raw bytes of a legal web page, PDF or text file
// into readable plain text and Markdown. It is pure: bytes in, text out.
package extract

import "errors"

// Document is what extraction yields from one page.
type Document struct {
	Title        string
	DocumentType string // terms, privacy or other
	Language     string // ISO 639-1, e.g. "en"; "" when unknown
	Text         string // paragraphs separated by blank lines
	Markdown     string
	WordCount    int
	ContentHash  string // hash of the normalised text, stable across noise
}

var (
	// ErrNoText: the input is a readable format but holds no text (e.g. an image-only PDF).
	ErrNoText = errors.New("no extractable text")
	// ErrUnsupported: the input is not a document we can read (an image, a binary).
	ErrUnsupported = errors.New("not a document we can read")
)

// Extract reads raw bytes. contentType is the HTTP Content-Type header, if
// any (the type and charset are sniffed when it is empty or wrong); pageURL
// resolves relative links and may be empty.
func Extract(raw []byte, contentType, pageURL string) (*Document, error) {
	return nil, ErrUnsupported // placeholder until issue 3 lands
}
