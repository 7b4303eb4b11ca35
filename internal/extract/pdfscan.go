package extract

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
)

// What the compressed streams of a PDF expand to is checked in Go before
// PDFium sees the file, so a decompression bomb is refused at once instead
// of inflating inside the sandbox until its memory runs out (seconds of
// work on a worker every other PDF waits for). Images, fonts and embedded
// files are left to PDFium: they are not read as text, and their size is
// bounded by the sandbox's memory.
const (
	maxPDFStream   = 32 << 20  // one stream of page content
	maxPDFInflated = 256 << 20 // all of them
)

var streamKeyword = []byte("stream")

// checkPDFStreams refuses a PDF whose content streams inflate beyond the
// bounds. It reads each dictionary that precedes a "stream" keyword once,
// so the scan is linear in the file, and inflates at most the bounds.
func checkPDFStreams(raw []byte) error {
	total := 0
	for from := 0; ; {
		k := bytes.Index(raw[from:], streamKeyword)
		if k < 0 {
			return nil
		}
		at := from + k
		dict := bytes.TrimRight(raw[max(from, at-4096):at], " \t\r\n\f\x00")
		from = at + len(streamKeyword)
		if !bytes.HasSuffix(dict, []byte(">>")) { // "endstream", or the word in a text
			continue
		}
		if o := bytes.LastIndex(dict, []byte("obj")); o >= 0 {
			dict = dict[o:]
		}
		if !bytes.Contains(dict, []byte("/FlateDecode")) || bytes.Contains(dict, []byte("/Length1")) ||
			bytes.Contains(dict, []byte("/EmbeddedFile")) ||
			bytes.Contains(dict, []byte("/Subtype")) && !bytes.Contains(dict, []byte("/Form")) {
			continue
		}
		body := raw[from:]
		if len(body) > 0 && body[0] == '\r' {
			body = body[1:]
		}
		if len(body) > 0 && body[0] == '\n' {
			body = body[1:]
		}
		zr, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			continue // not zlib data: PDFium decides what it is
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(zr, maxPDFStream+1))
		if n > maxPDFStream {
			return fmt.Errorf("%w: a stream of the PDF expands to more than %d MB", ErrTooComplex, maxPDFStream>>20)
		}
		if total += int(n); total > maxPDFInflated {
			return fmt.Errorf("%w: the streams of the PDF expand to more than %d MB", ErrTooComplex, maxPDFInflated>>20)
		}
	}
}
