package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract checks that no input makes Extract panic or return invalid
// UTF-8. make test runs it for a few seconds; longer with:
// go test ./internal/extract -run ^$ -fuzz FuzzExtract -fuzztime 10m
func FuzzExtract(f *testing.F) {
	seeds := []string{
		"",
		"<html><body><main><h1>Terms</h1><p>Text</p></main></body></html>",
		"<div><div><div><p>deep</div></p></div>",
		"<table><tr><td>a<td>b<tr><td colspan=3>c</table>",
		"<ul><li>one<li>two<ol><li>three</ul>",
		"<dl><dt>a<dd>b<dt>c</dl>",
		"<p>a<br>b</br>c</p><pre>  x\n  y</pre>",
		"<svg/><script/>text<template>t</template><title>T</title>",
		"<a href='javascript:x'>j</a><a href=#f>f</a><a href=//x.y/z>z</a>",
		"<div aria-hidden=true>" + strings.Repeat("<p>Long hidden prose here. </p>", 20) + "</div>",
		"<custom-el>x</custom-el><x-y><z-w>q</x-y>",
		"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<</Root 1 0 R>>",
		"\xff\xfe<\x00p\x00>\x00",
		"<meta charset=shift_jis><p>\x82\xa0</p>",
		"plain text\r\nwith lines",
		strings.Repeat("<b>", 300) + "x",
		"<h1><button aria-expanded=false>Sec</button></h1><div hidden>" + strings.Repeat("z ", 300) + "</div>",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "text/html")
	}
	f.Add([]byte("Terms\n\nText"), "text/plain")
	f.Add(makePDF("BT /F1 12 Tf 72 720 Td (Hi) Tj ET"), "application/pdf")
	f.Add(makePDF("BT /F1 10 Tf 1 0 0 1 72 700 Tm (Left) Tj 1 0 0 1 330 700 Tm (Right) Tj ET"), "application/pdf")
	f.Add(manyPagesPDF(3), "application/pdf")
	f.Fuzz(func(t *testing.T, raw []byte, ct string) {
		doc, err := testExtractor(t).Extract(raw, ct, "https://example.com/a/b")
		if err != nil {
			return
		}
		if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Markdown) || !utf8.ValidString(doc.Title) {
			t.Fatalf("invalid UTF-8 output")
		}
		if strings.TrimSpace(doc.Text) == "" {
			t.Fatalf("empty text without ErrNoText")
		}
		if len(doc.ContentHash) != 64 {
			t.Fatalf("hash %q", doc.ContentHash)
		}
	})
}
