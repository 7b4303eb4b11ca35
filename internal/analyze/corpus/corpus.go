// Package corpus reads shared/data/corpus, the unlabelled English terms and
// privacy policies (no split: none of it is a test set), for the tests and
// measurements that need long real legal text; and the data's JSONL files
// (EachLine), with the writer and text key of the labelled samples drawn
// from the corpus (WriteLines, TextHash).
package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Doc is one document of the corpus: its service, its type ("Terms of
// Service", "Privacy Policy", ...), the URL it was read from and its text.
type Doc struct {
	Service, Type, Source, Text string
}

// Read reads documents.jsonl.gz at path, in its order.
func Read(path string) ([]Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20) // the longest document is under 1 MB
	var docs []Doc
	for sc.Scan() {
		var d Doc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return docs, nil
}

// Text is n code points of real legal text: the documents one after
// another from the first, separated by blank lines, the last one cut.
func Text(docs []Doc, n int) string {
	var sb strings.Builder
	for i := 0; n > 0; i++ {
		t := docs[i%len(docs)].Text + "\n\n"
		if c := utf8.RuneCountInString(t); c > n {
			t = string([]rune(t)[:n])
		}
		sb.WriteString(t)
		n -= utf8.RuneCountInString(t)
	}
	return sb.String()
}

// EachLine calls line with each non-blank line of the file at path (a JSONL
// file of the data: labels, indexes, documents; lines up to 16 MiB), and
// names the file and the line in the error of one it refuses.
func EachLine(path string, line func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := line(sc.Bytes()); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// WriteLines writes xs to w as JSON lines, one value a line, the form
// EachLine reads and the labelled samples are kept in. <, > and & stay as
// they are (no HTML escaping), so a line shows the text it holds.
func WriteLines[T any](w io.Writer, xs []T) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, x := range xs {
		if err := enc.Encode(x); err != nil {
			return err
		}
	}
	return nil
}

// TextHash is a labelled sample's key for its text (the sha256 field of
// the case and privacy labels): the first 8 bytes of the text's SHA-256, in
// hex. A label whose text no longer hashes to it was moved or edited.
func TextHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:8])
}
