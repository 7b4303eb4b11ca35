//go:build proof

package proof

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// attackPDFs are the PDFs the attack site serves, by path: the stream bomb
// of issue 29 (1,999 pages drawing one deflated stream of 20,000 empty
// text runs, 0.3 MB that took 19 s of CPU to refuse) and a one-page PDF of
// another account's.
func attackPDFs() map[string][]byte {
	bomb := "BT /F1 12 Tf 72 720 Td (A page) Tj " + strings.Repeat("() Tj ", 20_000) + "ET"
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write([]byte(bomb))
	_ = zw.Close()
	page := "BT /F1 12 Tf 72 720 Td (We may terminate your account at any time without notice.) Tj ET"
	return map[string][]byte{
		"/bomb.pdf": buildPDF(1999, fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes())),
		"/page.pdf": buildPDF(1, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(page), page)),
	}
}

// buildPDF is a PDF of n pages that all draw the content stream object
// given.
func buildPDF(n int, stream string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the page tree, once the page numbers are known
		stream,
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var kids strings.Builder
	for range n {
		fmt.Fprintf(&kids, "%d 0 R ", len(objs)+1)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
