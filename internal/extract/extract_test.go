package extract

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/adler32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden pins the extracted text of the shared dev-set pages that have a
// golden file. A page added to the shared set is pinned once its text is
// worth keeping: every HTML page, and one PDF of each producer (Word 030,
// Acrobat PDFMaker 032, Microsoft Print To PDF 039, Google Docs 029, Chrome
// print 035, macOS Quartz 026) beside 018 and 020.
// Refresh with: go test ./internal/extract -run TestGolden -update
func TestGolden(t *testing.T) {
	goldens, err := filepath.Glob(filepath.Join("testdata", "golden", "[0-9]*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	docTypes := sharedDocTypes(t)
	n := 0
	for _, g := range goldens {
		id := strings.TrimSuffix(filepath.Base(g), ".txt")
		pages, _ := filepath.Glob(filepath.Join(sharedData, id+".*"))
		f := ""
		for _, p := range pages {
			if !strings.HasSuffix(p, ".md") {
				f = p
			}
		}
		if f == "" {
			t.Errorf("golden %s has no page %s.* in %s", g, id, sharedData)
			continue
		}
		n++
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := testExtractor(t).Extract(raw, "", "https://example.com/legal/"+id)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", id+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(doc.Text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if doc.Text != string(want) {
				t.Errorf("text differs from %s (run with -update if the change is intended):\n%s", golden, firstDiff(string(want), doc.Text))
			}
			if doc.Title == "" || doc.Language != "en" || doc.WordCount < 100 || len(doc.ContentHash) != 64 {
				t.Errorf("metadata: title %q language %q words %d hash %q", doc.Title, doc.Language, doc.WordCount, doc.ContentHash)
			}
			// Transparency reports and human-rights statements are neither
			// terms nor a privacy policy.
			if dt := docTypes[id]; doc.DocumentType == "other" && (strings.Contains(dt, "Terms") || strings.Contains(dt, "Privacy") ||
				strings.Contains(dt, "Agreement") || strings.Contains(dt, "Acceptable Use")) {
				t.Errorf("document type %q for a legal page titled %q", doc.DocumentType, doc.Title)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d shared pages found in %s", n, sharedData)
	}
}

// sharedDocTypes maps the dev set's page ids to the kind of document each
// is (index.jsonl's doc_type).
func sharedDocTypes(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(sharedData, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		var rec struct {
			ID      string `json:"id"`
			DocType string `json:"doc_type"`
		}
		if json.Unmarshal(line, &rec) == nil {
			types[rec.ID] = rec.DocType
		}
	}
	return types
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d\nwant: %q\ngot:  %q", i, a[from:min(len(a), i+120)], b[from:min(len(b), i+120)])
}

func mustExtract(t *testing.T, html string) *Document {
	t.Helper()
	doc, err := testExtractor(t).Extract([]byte(html), "text/html; charset=utf-8", "https://example.com/legal/terms")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

func wantNotContains(t *testing.T, got string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(got, w) {
			t.Errorf("unexpected %q in:\n%s", w, got)
		}
	}
}

const prose = "These terms govern your use of the service and describe the rights and obligations of both parties in detail. "

func TestBoilerplateRemoved(t *testing.T) {
	doc := mustExtract(t, `<!doctype html><html><head><title>Terms of Service - Example</title>
<style>.x{color:red}</style><script>var tracking = "SCRIPTTEXT";</script></head>
<body>
<header class="site-header"><a href="/">Home</a><nav><ul><li><a href="/a">Products</a></li><li><a href="/b">Pricing</a></li></ul></nav></header>
<div id="onetrust-consent-sdk"><div class="banner"><p>We use cookies to improve your experience. Accept all cookies?</p><button>Accept</button></div></div>
<div class="layout">
 <aside class="sidebar"><ul><li><a href="#s1">Jump to section one</a></li></ul></aside>
 <main>
  <h1>Terms of Service</h1>
  <p>`+strings.Repeat(prose, 5)+`</p>
  <h2>1. Accounts</h2>
  <p>`+strings.Repeat(prose, 5)+`</p>
  <form action="/subscribe"><label>Email</label><input name="email"><button>Subscribe to newsletter</button></form>
  <div style="display: none">HIDDENMENU</div>
  <noscript>NOSCRIPTTEXT</noscript>
  <template><p>TEMPLATETEXT</p></template>
  <svg><text>SVGTEXT</text></svg>
 </main>
</div>
<footer><p>© 2026 Example Inc.</p><a href="/privacy">Privacy</a></footer>
<div role="dialog" aria-modal="true" class="modal"><p>Sign up for our newsletter</p></div>
</body></html>`)
	wantContains(t, doc.Text, "Terms of Service", "1. Accounts", "These terms govern")
	wantNotContains(t, doc.Text, "Products", "Pricing", "cookies", "Accept", "Jump to", "Subscribe", "HIDDENMENU",
		"NOSCRIPTTEXT", "TEMPLATETEXT", "SVGTEXT", "SCRIPTTEXT", "© 2026", "Sign up", ".x{")
	if doc.Title != "Terms of Service - Example" || doc.DocumentType != "terms" || doc.Language != "en" {
		t.Errorf("title %q type %q lang %q", doc.Title, doc.DocumentType, doc.Language)
	}
	if !strings.HasPrefix(doc.Markdown, "# Terms of Service\n\n") || !strings.Contains(doc.Markdown, "\n## 1. Accounts\n") {
		t.Errorf("markdown headings:\n%s", doc.Markdown)
	}
}

func TestStructureKept(t *testing.T) {
	doc := mustExtract(t, `<html><body><article>
<h1>Privacy Policy</h1>
<p>We process personal data as described here.<br>Line two of the same paragraph.</p>
<h2>2. What we collect</h2>
<ol><li>Account data</li><li>Usage data<ul><li>Logs</li><li>Cookies you accept</li></ul></li></ol>
<dl><dt>Controller</dt><dd>Example Inc., 1 Main St.</dd><dt>Processor</dt><dd>Our hosting provider.</dd></dl>
<table><thead><tr><th>Purpose</th><th>Legal basis</th></tr></thead>
<tbody><tr><td>Providing the service</td><td>Contract</td></tr><tr><td>Security</td><td>Legitimate interest</td></tr></tbody></table>
<p>Read the <a href="/terms?utm_source=x">terms</a> and <strong>important</strong> <em>notes</em>.</p>
<div>Block one</div><div>Block two</div><span>inline</span><section>Section text</section>
<p>word<span>glued</span> and <b>bold</b>text</p>
</article></body></html>`)
	text, md := doc.Text, doc.Markdown
	wantContains(t, text,
		"Privacy Policy\n\nWe process personal data as described here.\nLine two of the same paragraph.\n\n2. What we collect",
		"- Account data\n- Usage data\n- Logs\n- Cookies you accept",
		"Controller\n\nExample Inc., 1 Main St.",
		"Purpose | Legal basis\nProviding the service | Contract\nSecurity | Legitimate interest",
		"Read the terms and important notes.",
		"Block one\n\nBlock two\n\ninline\n\nSection text",
		"wordglued and boldtext",
	)
	wantContains(t, md,
		"# Privacy Policy",
		"## 2. What we collect",
		"1. Account data\n2. Usage data\n   - Logs\n   - Cookies you accept",
		"**Controller**",
		"| Purpose | Legal basis |\n| --- | --- |\n| Providing the service | Contract |",
		"[terms](https://example.com/terms?utm_source=x)",
		"**important** _notes_",
	)
	if doc.DocumentType != "privacy" {
		t.Errorf("type %q", doc.DocumentType)
	}
}

// Words in adjacent blocks are never glued together, whatever the markup.
func TestNoGluedWords(t *testing.T) {
	doc := mustExtract(t, `<body><main>
<div><span>Alpha</span></div><div><span>Beta</span></div>
<p>Gamma</p><p>Delta</p>
<ul><li>Epsilon</li><li>Zeta</li></ul>
<h3>Eta</h3><h4>Theta</h4>
<table><tr><td>Iota</td><td>Kappa</td></tr></table>
<custom-block>Lambda</custom-block><custom-block>Mu</custom-block>
<td>Nu</td><td>Xi</td>
<p>Omicron<br>Pi</p>
<dl><dt>Rho</dt><dd>Sigma</dd></dl>
<div>Tau<div>Upsilon</div>Phi</div>
</main></body>`)
	for _, w := range []string{"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda", "Mu", "Nu", "Xi", "Omicron", "Pi", "Rho", "Sigma", "Tau", "Upsilon", "Phi"} {
		found := false
		for _, f := range strings.FieldsFunc(doc.Text, func(r rune) bool { return r == ' ' || r == '\n' || r == '|' || r == '-' }) {
			if f == w {
				found = true
			}
		}
		if !found {
			t.Errorf("word %q not separated in %q", w, doc.Text)
		}
	}
}

// Sections split across tabs or accordions are all kept, even those that
// are hidden until clicked.
func TestTabsAndAccordionsKept(t *testing.T) {
	doc := mustExtract(t, `<body><main><h1>Terms</h1>
<div role="tablist"><button role="tab" aria-controls="p1">Users</button><button role="tab" aria-controls="p2">Sellers</button></div>
<div role="tabpanel" id="p1"><h2>Terms for users</h2><p>`+strings.Repeat("Users must follow these rules at all times. ", 12)+`</p></div>
<div role="tabpanel" id="p2" hidden><h2>Terms for sellers</h2><p>`+strings.Repeat("Sellers must ship goods promptly and honestly. ", 12)+`</p></div>
<details><summary>Section 3: Liability</summary><p>Our liability is limited to the amount you paid.</p></details>
<h3><button aria-expanded="false" aria-controls="acc4">Section 4: Termination</button></h3>
<div id="acc4" class="accordion-panel" style="display:none"><p>`+strings.Repeat("Either party may terminate this agreement with notice. ", 10)+`</p></div>
</main></body>`)
	wantContains(t, doc.Text, "Terms for users", "Terms for sellers", "Sellers must ship", "Section 3: Liability",
		"Our liability is limited", "Section 4: Termination", "Either party may terminate")
}

// An open dialog leaves aria-hidden="true" on the page wrapper: the page
// text must survive, while the dialog (a consent prompt) goes.
func TestAriaHiddenWrapper(t *testing.T) {
	doc := mustExtract(t, `<body>
<div id="app" aria-hidden="true"><main><h1>Privacy Notice</h1>`+
		strings.Repeat("<p>We collect personal data only where we have a legal basis for doing so.</p>", 15)+
		`</main></div>
<div role="dialog" aria-modal="true" class="consent-dialog"><p>Do you accept our cookies?</p><button>Yes</button></div>
<span aria-hidden="true">★</span>
</body>`)
	wantContains(t, doc.Text, "Privacy Notice", "We collect personal data")
	wantNotContains(t, doc.Text, "Do you accept", "★")
}

// A page that repeats its whole document for a mobile layout yields it once.
func TestDuplicateLayoutCopyDropped(t *testing.T) {
	body := "<h1>Terms</h1>" + strings.Repeat("<p>"+prose+"</p>", 6)
	doc := mustExtract(t, `<body><main class="hidden lg:block">`+body+`</main><main class="lg:hidden">`+body+`</main></body>`)
	if n := strings.Count(doc.Text, prose[:40]); n != 6 {
		t.Errorf("paragraph appears %d times, want 6", n)
	}
}

func TestCharsets(t *testing.T) {
	tests := []struct {
		name, ct string
		raw      []byte
		want     string
	}{
		{"windows-1252 header", "text/html; charset=windows-1252",
			[]byte("<p>Caf\xe9 \x93quoted\x94 \x96 na\xefve</p>"), "Café “quoted” – naïve"},
		{"windows-1252 meta", "text/html",
			[]byte("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"></head><body><p>Caf\xe9 \x80 5</p></body></html>"), "Café € 5"},
		{"iso-8859-1 meta charset", "",
			[]byte("<html><head><meta charset=\"iso-8859-1\"></head><body><p>Gr\xfc\xdfe aus K\xf6ln</p></body></html>"), "Grüße aus Köln"},
		{"shift_jis meta", "text/html",
			[]byte("<html><head><meta charset=\"Shift_JIS\"></head><body><p>\x97\x98\x97\x70\x8b\x4b\x96\xf1</p></body></html>"), "利用規約"},
		{"shift_jis header", "text/html; charset=shift_jis",
			[]byte("<p>\x83\x76\x83\x89\x83\x43\x83\x6f\x83\x56\x81\x5b\x83\x7c\x83\x8a\x83\x56\x81\x5b</p>"), "プライバシーポリシー"},
		{"utf-8 BOM", "",
			[]byte("\xef\xbb\xbf<p>Datenschutzerkl\xc3\xa4rung</p>"), "Datenschutzerklärung"},
		{"utf-16le BOM", "",
			[]byte("\xff\xfe<\x00p\x00>\x00\xe9\x00t\x00\xe9\x00<\x00/\x00p\x00>\x00"), "été"},
		{"utf-8 mislabelled latin-1", "text/html; charset=iso-8859-1",
			[]byte("<p>Conditions g\xc3\xa9n\xc3\xa9rales</p>"), "Conditions générales"},
		{"undeclared utf-8", "",
			[]byte("<p>Política de privacidad</p>"), "Política de privacidad"},
		{"plain text windows-1252", "text/plain; charset=windows-1252",
			[]byte("Nutzungsbedingungen f\xfcr Kunden"), "Nutzungsbedingungen für Kunden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := testExtractor(t).Extract(tt.raw, tt.ct, "")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(doc.Text, tt.want) {
				t.Errorf("text %q, want %q", doc.Text, tt.want)
			}
		})
	}
}

func TestPlainText(t *testing.T) {
	doc, err := testExtractor(t).Extract([]byte("Terms of Use\r\n\r\n\r\n1. You agree.   \r\n2. We agree.\r\n"), "text/plain", "")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "Terms of Use\n\n1. You agree.\n2. We agree." {
		t.Errorf("text %q", doc.Text)
	}
	if doc.Title != "Terms of Use" || doc.DocumentType != "terms" {
		t.Errorf("title %q type %q", doc.Title, doc.DocumentType)
	}
}

func TestPDF(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(sharedData, "018.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	// The bytes decide, whatever the declared type.
	doc, err := testExtractor(t).Extract(raw, "application/octet-stream", "")
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, doc.Text, "Acceptable Use Policy", "This Acceptable Use Policy (the “Policy”) applies")
	// its font maps "fi" to the ligature U+FB01; the text spells it out
	wantContains(t, doc.Text, "not defined in this policy")
	if strings.ContainsAny(doc.Text, "\ufb00\ufb01\ufb02\ufb03\ufb04") {
		t.Error("ligature characters left in the text")
	}
	if doc.DocumentType != "terms" || doc.Language != "en" {
		t.Errorf("type %q lang %q", doc.DocumentType, doc.Language)
	}

	doc, err = testExtractor(t).Extract(makePDF("BT /F1 12 Tf 72 720 Td (Terms of Use) Tj 0 -20 Td (You must be 18 or older.) Tj ET"), "application/pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, doc.Text, "Terms of Use", "You must be 18 or older.")
}

func TestErrors(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	tests := []struct {
		name string
		raw  []byte
		ct   string
		want error
	}{
		{"png", png, "image/png", ErrUnsupported},
		{"png as html", png, "text/html", ErrUnsupported},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"), "", ErrUnsupported},
		{"gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"), "", ErrUnsupported},
		{"binary", bytes.Repeat([]byte{0, 1, 2, 3, 0xfe}, 100), "application/octet-stream", ErrUnsupported},
		{"image-only pdf", makePDF("q 100 0 0 100 0 0 cm /Im1 Do Q"), "application/pdf", ErrNoText},
		{"broken pdf", []byte("%PDF-1.4\ngarbage"), "application/pdf", ErrUnsupported},
		{"empty html", []byte("<html><body><script>x()</script></body></html>"), "text/html", ErrNoText},
		{"empty", nil, "", ErrNoText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testExtractor(t).Extract(tt.raw, tt.ct, "")
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// makePDF builds a one-page PDF whose content stream is content.
func makePDF(content string) []byte {
	return makePDFObjs([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, "")
}

// makePDFObjs builds a PDF from numbered objects; trailerExtra is added to
// the trailer dictionary ("%XREF%" stands for the xref offset).
func makePDFObjs(objs []string, trailerExtra string) []byte {
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
	extra := strings.ReplaceAll(trailerExtra, "%XREF%", fmt.Sprint(xref))
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, extra, xref)
	return b.Bytes()
}

// Hostile PDFs whose structures point back at themselves end quickly.
func TestHostilePDF(t *testing.T) {
	content := "BT /F1 12 Tf 72 720 Td (Looping document) Tj ET"
	stream := fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
	tests := map[string][]byte{
		"kids cycle": makePDFObjs([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
			stream, font}, ""),
		"parent cycle": makePDFObjs([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 2 0 R >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
			stream, font}, ""),
		"prev cycle": makePDFObjs([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
			stream, font}, "/Prev %XREF%"),
		"huge count": makePDFObjs([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R 3 0 R 3 0 R 3 0 R] /Count 999999999 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
			stream, font}, ""),
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := testExtractor(t).Extract(raw, "application/pdf", "")
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("took %v (err %v)", d, err)
			}
		})
	}
}

// raceEnabled is set under -race (race_test.go).
var raceEnabled bool

// hostileCases build pathological markup of about n units.
var hostileCases = map[string]func(n int) string{
	"deep": func(n int) string { return strings.Repeat("<div>", n) + "deep text" + strings.Repeat("</div>", n) },
	"many": func(n int) string {
		return "<body><main>" + strings.Repeat("<p>para <b>x</b></p>", n) + "</main></body>"
	},
	"unclosed":   func(n int) string { return strings.Repeat("<li><b><i><a href=x>", n) + "end" },
	"stray":      func(n int) string { return strings.Repeat("</div></p></li></table>", n) + "<p>after</p>" },
	"inlineDeep": func(n int) string { return "<p>" + strings.Repeat("<b><i><a href=/x>", n) + "inline text" },
	"fragments":  func(n int) string { return "<p>" + strings.Repeat("word <!-- c -->", n) },
	"scripts":    func(n int) string { return strings.Repeat("<p>a</p><script>", n) },
	"heads":      func(n int) string { return strings.Repeat("<html><head><p>x", n) },
	"tables":     func(n int) string { return strings.Repeat("<table><tr><td>cell ", n/10) + strings.Repeat("text ", n) },
	"customDeep": func(n int) string { return strings.Repeat("<x-a>", n) + "custom" + strings.Repeat("</x-b>", n) },
	"attrs":      func(n int) string { return "<p class=\"" + strings.Repeat("cookie nav ", n) + "\">text</p>" },
	"hiddenNest": func(n int) string {
		return strings.Repeat("<div hidden><div aria-hidden=true>", n) + strings.Repeat("prose words here ", n)
	},
	"listsInline": func(n int) string { return strings.Repeat("<ul><li><span>", n) + "item" },
}

// Hostile markup never panics and stays linear: ten times the input may
// not cost much more than ten times the time.
func TestHostileHTML(t *testing.T) {
	for name, build := range hostileCases {
		t.Run(name, func(t *testing.T) {
			n := 10000
			if raceEnabled || testing.Short() {
				n = 1000 // the race detector slows everything; linearity is checked without it
			}
			small, large := []byte(build(n)), []byte(build(10*n))
			cost := func(b []byte) time.Duration {
				best := time.Duration(1 << 62)
				for i := 0; i < 3; i++ {
					start := time.Now()
					doc, err := testExtractor(t).Extract(b, "text/html", "")
					if err == nil && doc.WordCount == 0 {
						t.Fatal("document without words")
					}
					best = min(best, time.Since(start))
				}
				return best
			}
			cs, cl := cost(small), cost(large)
			perByteRatio := (float64(cl) / float64(len(large))) / (float64(cs) / float64(len(small)))
			t.Logf("%d bytes %v, %d bytes %v (per-byte ratio %.2f)", len(small), cs, len(large), cl, perByteRatio)
			if !raceEnabled && perByteRatio > 6 && cl > 200*time.Millisecond {
				t.Errorf("not linear: %d bytes in %v, %d bytes in %v", len(small), cs, len(large), cl)
			}
		})
	}
}

// Hostile markup within the node budget never panics and keeps its text.
func TestHostileHTMLText(t *testing.T) {
	deep := strings.Repeat("<div>", 90000) + "deep text" + strings.Repeat("</div>", 90000)
	many := "<body><main>" + strings.Repeat("<p>para <b>x</b></p>", 20000) + "</main></body>"
	unclosed := strings.Repeat("<li><b><i><a href=x>", 20000) + "end"
	stray := strings.Repeat("</div></p></li></table>", 50000) + "<p>after</p>"
	inlineDeep := "<p>" + strings.Repeat("<b><i><a href=/x>", 30000) + "inline text"
	for name, html := range map[string]string{"deep": deep, "many": many, "unclosed": unclosed, "stray": stray, "inlineDeep": inlineDeep} {
		doc, err := testExtractor(t).Extract([]byte(html), "text/html", "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.WordCount == 0 {
			t.Errorf("%s: no text", name)
		}
	}
}

func TestContentHashStable(t *testing.T) {
	base := "Terms of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?topic=billing for help.\n\nPage printed on 12/04/2025 at 10:42 AM."
	same := []string{
		"Terms   of Service\n\n\n\nLast updated: March 3, 2025\nVisit https://example.com/help?topic=billing for help.\n\nPage printed on 12/04/2025 at 10:42 AM.",
		"Terms of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?topic=billing&utm_source=newsletter&utm_medium=email&fbclid=abc for help.\n\nPage printed on 12/04/2025 at 10:42 AM.",
		"Terms of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?gclid=xyz&topic=billing for help.\n\nPage printed on 12/04/2025 at 10:42 AM.",
		"Terms of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?topic=billing for help.\n\nPage printed on 1/5/2026 at 9:01 PM.",
		"Terms of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?topic=billing for help.\n\nPage printed on Monday, January 5, 2026 at 9:01 PM UTC.",
		"Terms\u00a0of Service\n\nLast updated: March 3, 2025\n\nVisit https://example.com/help?topic=billing for help.\n\nPage printed on 2026-01-05T09:01:00Z.",
	}
	h := ContentHash(base)
	if len(h) != 64 {
		t.Fatalf("hash %q", h)
	}
	for _, s := range same {
		if got := ContentHash(s); got != h {
			t.Errorf("hash changed for %q\nnormalised: %q\nbase:       %q", s, NormalizeForHash(s), NormalizeForHash(base))
		}
	}
	for _, pair := range [][2]string{
		{"Last visited on 3 May 2024. We may share data.", "Last visited on 4 June 2025. We may share data."},
		{"Generated at 2025-01-01 10:00:00 UTC. Fees apply.", "Generated at 2025-06-01 11:30:00 UTC. Fees apply."},
		{"Retrieved on May 3, 2024 from the archive.", "Retrieved on May 9, 2025 from the archive."},
		{"Zuletzt abgerufen am 03.05.2024. Text.", "Zuletzt abgerufen am 04.06.2025. Text."},
	} {
		if ContentHash(pair[0]) != ContentHash(pair[1]) {
			t.Errorf("hash differs:\n%q\n%q", NormalizeForHash(pair[0]), NormalizeForHash(pair[1]))
		}
	}
	differ := []string{
		strings.Replace(base, "March 3, 2025", "April 1, 2025", 1), // a new version
		strings.Replace(base, "billing", "refunds", 1),
		strings.Replace(base, "Terms of Service", "Terms of Sale", 1),
	}
	for _, s := range differ {
		if ContentHash(s) == h {
			t.Errorf("hash unchanged for a real change: %q", s)
		}
	}
}

func TestDetectType(t *testing.T) {
	tests := []struct{ title, text, want string }{
		{"Privacy Policy | Example", "We collect personal data.", "privacy"},
		{"Terms of Service", "By using the service you agree to these terms.", "terms"},
		{"", "This Privacy Notice explains how we process your personal information and personal data.", "privacy"},
		{"", "These Terms of Use govern your access. Limitation of liability. Governing law.", "terms"},
		{"Datenschutzerklärung", "Wir verarbeiten personenbezogene Daten.", "privacy"},
		{"Allgemeine Geschäftsbedingungen", "Diese AGB gelten für alle Verträge.", "terms"},
		{"Politique de confidentialité", "Nous traitons vos données personnelles.", "privacy"},
		{"Condiciones de uso", "Estos términos y condiciones regulan el uso.", "terms"},
		{"Polityka prywatności", "Przetwarzamy dane osobowe.", "privacy"},
		{"Our team", "We are a small team of bakers who love bread.", "other"},
	}
	for _, tt := range tests {
		if got := DetectType(tt.title, tt.text); got != tt.want {
			t.Errorf("DetectType(%q, %q) = %q, want %q", tt.title, tt.text, got, tt.want)
		}
	}
}

func TestDetectLanguage(t *testing.T) {
	tests := map[string]string{
		"en": "These terms apply to your use of the service and you agree that we may change them at any time.",
		"de": "Diese Bedingungen gelten für die Nutzung des Dienstes und Sie stimmen zu, dass wir sie jederzeit ändern können, wenn es nicht anders vereinbart ist.",
		"fr": "Les présentes conditions s'appliquent à votre utilisation du service et vous acceptez que nous puissions les modifier à tout moment pour des raisons qui sont les nôtres.",
		"es": "Estos términos se aplican a su uso del servicio y usted acepta que podemos cambiarlos en cualquier momento por las razones que se indican en la política de la empresa.",
		"it": "Questi termini si applicano all'uso del servizio e l'utente accetta che possiamo modificarli in qualsiasi momento per le ragioni che sono indicate nella politica della società.",
		"nl": "Deze voorwaarden zijn van toepassing op het gebruik van de dienst en u gaat ermee akkoord dat wij deze op elk moment kunnen wijzigen voor redenen die niet bij u bekend zijn.",
		"pt": "Estes termos aplicam-se ao uso do serviço e você concorda que podemos alterá-los a qualquer momento pelas razões que são indicadas na política da empresa para os dados dos usuários.",
		"pl": "Niniejszy regulamin dotyczy korzystania z usługi i zgadzasz się, że możemy go zmienić w każdej chwili, jeżeli jest to konieczne dla ochrony danych oraz bezpieczeństwa, które są ważne.",
		"ja": "本規約は、当社が提供するサービスの利用条件を定めるものです。",
		"":   "12345 67890 !!!",
	}
	for want, text := range tests {
		if got := DetectLanguage(text); got != want {
			t.Errorf("DetectLanguage(%.40q...) = %q, want %q", text, got, want)
		}
	}
}

func TestWordCount(t *testing.T) {
	for text, want := range map[string]int{
		"":                          0,
		"one":                       1,
		"Hello, world! 2 words":     4,
		"don't stop—ever":           4,
		"  spaced \n\n out\ttext  ": 3,
		"Grüße aus Köln":            3,
	} {
		if got := WordCount(text); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", text, got, want)
		}
	}
}

// A cookie policy's own cookie tables are the document; the consent
// prompt beside it is not.
func TestCookiePolicyKeepsItsTables(t *testing.T) {
	doc := mustExtract(t, `<body>
<div id="cookie-banner" class="cookie-consent"><p>We use cookies. Manage your preferences.</p><button>Accept all</button><button>Reject all</button></div>
<main><h1>Cookie Policy</h1><p>`+strings.Repeat("This policy explains which cookies we set and why we set them on your device. ", 6)+`</p>
<div id="ot-sdk-cookie-policy"><table class="cookie-table"><tr><th>Cookie name</th><th>Purpose</th></tr>
<tr><td>session_id</td><td>Keeps you signed in during a visit to the site</td></tr>
<tr><td>_analytics</td><td>Counts visits so that we can measure and improve performance</td></tr></table></div>
</main></body>`)
	wantContains(t, doc.Text, "Cookie Policy", "session_id", "Counts visits")
	wantNotContains(t, doc.Text, "Accept all", "Manage your preferences")
}

// Help-centre pages put rating, contact and related-article widgets beside
// the article.
func TestWidgetsBesideArticleDropped(t *testing.T) {
	doc := mustExtract(t, `<body><div class="top"><a href="/">Help Center</a> <a href="/contact">Contact</a></div>
<div class="wrap"><article><h1>Terms of Use</h1>`+strings.Repeat("<p>"+prose+"</p>", 8)+`</article>
<div class="articleRatings"><span>Did this answer your question?</span><button>Yes</button><button>No</button></div>
<section class="related"><h3>Related Articles</h3><ul><li><a href="/a">Refund policy</a></li><li><a href="/b">Safety tips</a></li><li><a href="/c">Community rules</a></li></ul></section>
</div><div class="bottom"><p>Powered by a help desk</p></div></body>`)
	wantContains(t, doc.Text, "Terms of Use", "These terms govern")
	wantNotContains(t, doc.Text, "Did this answer", "Related Articles", "Refund policy", "Powered by", "Help Center")
}

// An in-page table of contents repeats the headings: it goes, the
// sections stay. Short hidden tab panels are sections too.
func TestTableOfContentsAndShortPanels(t *testing.T) {
	var toc, secs strings.Builder
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&toc, `<li><a href="#s%d">Section %d title</a></li>`, i, i)
		fmt.Fprintf(&secs, `<h2 id="s%d">Section %d title</h2><p>%s</p>`, i, i, prose)
	}
	doc := mustExtract(t, `<body><main><h1>Terms</h1><ul class="index">`+toc.String()+`</ul>`+secs.String()+`
<div class="accordion"><div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button collapsed" data-bs-toggle="collapse" data-bs-target="#c7">7. Refunds</button></h2>
<div id="c7" class="accordion-collapse collapse"><div class="accordion-body">Refunds are issued within 14 days.</div></div></div></div>
<div role="tabpanel" hidden>Residents of Quebec have extra rights under local law.</div>
</main></body>`)
	if n := strings.Count(doc.Text, "Section 3 title"); n != 1 {
		t.Errorf("heading appears %d times, want 1 (table of contents dropped):\n%s", n, doc.Text)
	}
	wantContains(t, doc.Text, "7. Refunds", "Refunds are issued within 14 days.", "Residents of Quebec")
}

// Section ids made from headings ("how-we-share", "cookies", "social-media")
// must not be mistaken for share buttons or cookie banners, even on a page
// without landmarks.
func TestSectionIDsLikeBoilerplateWords(t *testing.T) {
	var b strings.Builder
	for _, id := range []string{"how-we-share-information", "cookies", "social-media", "newsletters", "interest-based-ads", "login-data", "feedback", "information-sharing", "menu-of-rights", "modal-clauses"} {
		fmt.Fprintf(&b, `<div id="%s"><h2>Section %s</h2><p>%s</p></div>`, id, id, prose+prose)
	}
	doc := mustExtract(t, `<body><div class="page"><div class="nav"><a href="/">Home</a><a href="/x">X</a><a href="/y">Y</a></div>
<div class="content"><h1>Privacy Policy</h1>`+b.String()+`</div>
<div id="cookie-notice"><p>This site uses cookies.</p><button>OK</button></div></div></body>`)
	for _, id := range []string{"how-we-share-information", "cookies", "social-media", "newsletters", "interest-based-ads", "login-data", "feedback", "information-sharing", "menu-of-rights", "modal-clauses"} {
		wantContains(t, doc.Text, "Section "+id)
	}
	if n := strings.Count(doc.Text, "These terms govern"); n != 20 {
		t.Errorf("prose appears %d times, want 20", n)
	}
	wantNotContains(t, doc.Text, "This site uses cookies", "Home")
}

// Multi-section terms: every sibling section is kept, not just the largest.
func TestAllSectionsKept(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, `<section class="terms-part"><h2>Part %d</h2><p>Part %d says: %s</p></section>`, i, i, strings.Repeat(prose, i))
	}
	doc := mustExtract(t, `<html lang="en-GB"><body><header><nav><a href="/">Home</a><a href="/a">About</a><a href="/b">Blog</a></nav></header>
<div class="container">`+b.String()+`</div><footer><p>Company footer</p></footer></body></html>`)
	for i := 1; i <= 5; i++ {
		wantContains(t, doc.Text, fmt.Sprintf("Part %d says", i))
	}
	wantNotContains(t, doc.Text, "Home", "Company footer")

	short := mustExtract(t, `<html lang="de-DE"><body><p>AGB</p></body></html>`)
	if short.Language != "de" {
		t.Errorf("language %q, want the declared de", short.Language)
	}
}

// Component frameworks name every block ("cmp-text", "trusted-..."); an
// aside inside the document is a summary, not a sidebar.
func TestFrameworkClassNamesAndAsides(t *testing.T) {
	doc := mustExtract(t, `<body><div class="cmp-container"><div class="cmp-text"><p>`+strings.Repeat(prose, 3)+`</p></div>
<div class="cmp-text trusted-partners"><p>Our trusted partners process data for us.</p></div>
<article><h1>Privacy</h1><aside class="summary">In short: we never sell your data.</aside><p>`+strings.Repeat(prose, 4)+`</p></article></div></body>`)
	wantContains(t, doc.Text, "Our trusted partners process data", "In short: we never sell your data.")
}

func TestLineBreakRuns(t *testing.T) {
	doc := mustExtract(t, `<p>First line<br><br><br><br>Second line<br>Third</p>`)
	if doc.Text != "First line\n\nSecond line\nThird" {
		t.Errorf("text %q", doc.Text)
	}
	if doc.Markdown != "First line  \n\nSecond line  \nThird" {
		t.Errorf("markdown %q", doc.Markdown)
	}
	// declared UTF-8, saved as windows-1252
	doc, err := testExtractor(t).Extract([]byte(`<html><head><meta charset="utf-8"></head><body><p>Les donn`+"\xe9"+`es personnelles sont prot`+"\xe9"+`g`+"\xe9"+`es par la loi fran`+"\xe7"+`aise.</p></body></html>`), "", "")
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, doc.Text, "Les données personnelles sont protégées")
}

// A PDF set in two columns is read column by column, not across.
func TestPDFTwoColumns(t *testing.T) {
	var c strings.Builder
	c.WriteString("BT /F1 10 Tf ")
	for i := 0; i < 8; i++ {
		y := 700 - 14*i
		fmt.Fprintf(&c, "1 0 0 1 72 %d Tm (Left%d words here) Tj 1 0 0 1 330 %d Tm (Right%d words here) Tj ", y, i, y, i)
	}
	c.WriteString("ET")
	doc, err := testExtractor(t).Extract(makePDF(c.String()), "application/pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	l7, r0 := strings.Index(doc.Text, "Left7"), strings.Index(doc.Text, "Right0")
	if l7 < 0 || r0 < 0 || l7 > r0 {
		t.Errorf("columns interleaved:\n%s", doc.Text)
	}
}

func TestNoscriptFallback(t *testing.T) {
	doc := mustExtract(t, `<html><head><title>Terms</title></head><body><div id="root"></div><script>render()</script>
<noscript><h1>Terms of Use</h1><p>You must be 16 or older to use the service.</p><p>`+prose+`</p></noscript></body></html>`)
	wantContains(t, doc.Text, "Terms of Use", "You must be 16 or older")
	// with real content, noscript text stays out
	doc = mustExtract(t, `<body><main><p>Visible terms text.</p></main><noscript><p>Please enable JavaScript.</p></noscript></body>`)
	wantNotContains(t, doc.Text, "enable JavaScript")
	// a bare "enable JavaScript" notice is no document
	if _, err := testExtractor(t).Extract([]byte(`<body><div id="app"></div><noscript>You need to enable JavaScript to run this app.</noscript></body>`), "text/html", ""); !errors.Is(err, ErrNoText) {
		t.Errorf("err = %v, want ErrNoText", err)
	}
}

// A site footer misplaced inside <main> goes; an article's footer stays.
func TestFooterInsideMain(t *testing.T) {
	doc := mustExtract(t, `<body><main><h1>Terms</h1><section><p>`+strings.Repeat(prose, 5)+`</p>
<footer><p>Version 3, effective 1 May 2026.</p></footer></section>
<footer><h3>Handy Links</h3><ul><li><a href="/a">About us</a></li><li><a href="/b">Careers</a></li></ul><p>© 2026 Example</p></footer></main></body>`)
	wantContains(t, doc.Text, "Version 3, effective 1 May 2026.")
	wantNotContains(t, doc.Text, "Handy Links", "About us", "© 2026")
}

// Narrowing to a dominant <article> must not drop a smaller second part.
func TestSecondArticleKept(t *testing.T) {
	doc := mustExtract(t, `<body><article><h1>Terms</h1>`+strings.Repeat("<p>"+prose+"</p>", 12)+`</article>
<article><h2>Additional terms for EU users</h2><p>EU consumers may withdraw from a purchase within fourteen days without giving any reason.</p></article>
<div class="related"><h3>Related</h3><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></div></body>`)
	wantContains(t, doc.Text, "Additional terms for EU users", "withdraw from a purchase")
}

// A section left outside <main> by the page's markup is still the document.
func TestSectionOutsideMainKept(t *testing.T) {
	doc := mustExtract(t, `<body><nav><a href="/">Home</a><a href="/b">Blog</a></nav><main><h1>Privacy Policy</h1>`+strings.Repeat("<p>"+prose+"</p>", 12)+`</main>
<div class="addendum"><h2>California addendum</h2><p>California residents may request deletion of their personal information at any time.</p></div>
<footer><a href="/t">Terms</a></footer></body>`)
	wantContains(t, doc.Text, "California addendum", "request deletion")
	wantNotContains(t, doc.Text, "Home", "Blog")
}

// The same PDF read by many requests at once gives the same text every
// time: the reader bounds its work, never the time it happens to get.
// (A small PDF of its own keeps the test quick under -race.)
func TestPDFConcurrentIdentical(t *testing.T) {
	var c strings.Builder
	c.WriteString("BT /F1 10 Tf 72 760 Td 14 TL ")
	for i := range 50 {
		fmt.Fprintf(&c, "(Line %d of the terms: the service may change these terms at any time.) ' ", i)
	}
	c.WriteString("ET")
	raw := makePDF(c.String())
	const n = 24
	texts := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			doc, err := testExtractor(t).Extract(raw, "application/pdf", "")
			if err != nil {
				errs[i] = err
				return
			}
			texts[i] = doc.Text
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("extract %d: %v", i, errs[i])
		}
		if texts[i] != texts[0] {
			t.Errorf("extract %d differs from extract 0 (%d and %d bytes)", i, len(texts[i]), len(texts[0]))
		}
	}
	if WordCount(texts[0]) < 600 {
		t.Errorf("only %d words", WordCount(texts[0]))
	}
}

// flatePDF builds a one-page PDF whose content stream, deflated, expands
// to about n bytes of repeated text operators. The deflate blocks of one
// chunk are repeated rather than compressing n bytes (slow under -race),
// and the checksum is combined from the chunk's.
func flatePDF(t *testing.T, n int) []byte {
	head := []byte("BT /F1 12 Tf 72 720 Td ")
	chunk := bytes.Repeat([]byte("(bomb) Tj "), 100_000)
	var z bytes.Buffer
	w, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(head)
	_ = w.Flush() // byte-aligned, not final: blocks can follow
	headBlocks := bytes.Clone(z.Bytes())
	z.Reset()
	_, _ = w.Write(chunk)
	_ = w.Flush()
	var s bytes.Buffer
	s.WriteString("\x78\xda")
	s.Write(headBlocks)
	one, sum := adler32.Checksum(chunk), adler32.Checksum(head)
	for written := 0; written < n; written += len(chunk) {
		s.Write(z.Bytes())
		sum = adler32Combine(sum, one, len(chunk))
	}
	s.WriteString("\x03\x00") // an empty final block
	s.Write(binary.BigEndian.AppendUint32(nil, sum))
	return makePDFObjs([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", s.Len(), s.Bytes()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, "")
}

// adler32Combine is the Adler-32 of two byte strings joined, from their
// checksums and the second one's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := rem * sum1 % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	return sum1%base | sum2%base<<16
}

// manyPagesPDF builds a PDF of n pages, each with one line of text.
func manyPagesPDF(n int) []byte {
	content := "BT /F1 12 Tf 72 720 Td (A page) Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the page tree, once the page numbers are known
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var kids strings.Builder
	for range n {
		fmt.Fprintf(&kids, "%d 0 R ", len(objs)+1)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	return makePDFObjs(objs, "")
}

// Hostile PDFs too big to read end in an error the service answers with
// 422, whole: never a hang, a crash or a text cut short.
func TestHugePDF(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"10,000 pages", manyPagesPDF(10_000)},
		{"stream inflating to 1 GiB", flatePDF(t, 1<<30)},
		{"stream of 40 MB of text", flatePDF(t, 40<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testExtractor(t).Extract(tt.raw, "application/pdf", "")
			if !errors.Is(err, ErrTooComplex) && !errors.Is(err, ErrUnsupported) {
				t.Errorf("err = %v, want ErrTooComplex or ErrUnsupported", err)
			}
		})
	}
}

// Font-measurement probes, listbox pickers and screen-reader-only hints go;
// the same words as real text stay (testdata/boilerplate, each page beside
// its "-real" companion).
func TestProbesPickersAndHintsDropped(t *testing.T) {
	tests := []struct {
		page       string
		keep, drop []string
	}{
		{"probe.html", []string{"Terms of Use", "1. Your account", "These terms govern"},
			[]string{"mmMwW", "word word", "BESbswy"}},
		{"probe-real.html", []string{"sample text mmMwWLliI0fiflO&1 before", "repeats one word: word word word", "2. Accessible summary", "two working days"}, nil},
		{"listbox.html", []string{"Privacy Policy", "Read our Privacy Center and our FAQ and our blog and our help pages for details."},
			[]string{"Deutsch", "日本語", "Tiếng Việt", "new tab", "new window", "external link", "↗"}},
		{"listbox-real.html", []string{"English\n- Deutsch", "日本語", "Tiếng Việt", "Opens in a new tab: that is"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "boilerplate", tt.page))
			if err != nil {
				t.Fatal(err)
			}
			doc := mustExtract(t, string(raw))
			wantContains(t, doc.Text, tt.keep...)
			wantNotContains(t, doc.Text, tt.drop...)
		})
	}
}

// domBomb is size bytes of the smallest elements: two nodes (the element
// and its text) for every nine bytes.
func domBomb(size int) []byte {
	return bytes.Repeat([]byte("<b>xy</b>"), size/len("<b>xy</b>"))
}

// An HTML page is refused with ErrTooComplex once its tree passes the node
// budget, while it is parsed: ten megabytes of tiny elements (2.3 million
// nodes, over a gigabyte when read whole) cost a few megabytes. The
// allocation bound holds the memory, not just the answer.
func TestNodeBudget(t *testing.T) {
	x := testExtractor(t)
	for name, page := range map[string][]byte{
		"body":     domBomb(10 << 20),
		"noscript": append(append([]byte("<html><body><noscript>"), domBomb(4<<20)...), "</noscript></body></html>"...),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := x.Extract(page, "text/html", "https://example.com/")
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooComplex) {
				t.Fatalf("err = %v, want ErrTooComplex", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
				t.Errorf("allocated %d MB reading a refused page, want under 200", alloc>>20)
			}
		})
	}
	// Just under the budget the page is read as any other.
	doc, err := x.Extract(domBomb((maxNodes/2-100)*9), "text/html", "")
	if err != nil || doc.WordCount == 0 {
		t.Fatalf("a page within the budget: err %v, %+v", err, doc)
	}
}

// An HTML page over MaxHTMLBytes is refused before it is parsed.
func TestHTMLTooLarge(t *testing.T) {
	page := append([]byte("<html><body><p>"), bytes.Repeat([]byte("word "), MaxHTMLBytes/5)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := testExtractor(t).Extract(page, "text/html", "")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooComplex) {
		t.Fatalf("err = %v, want ErrTooComplex", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("allocated %d KB refusing it, want nothing parsed", alloc>>10)
	}
}

// HTML pages wait for one of the extractor's places: with its one place
// taken, a page is not read until the place is free.
func TestHTMLWorkers(t *testing.T) {
	x, err := New(Options{HTMLWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if cap(x.html) != 1 {
		t.Fatalf("places = %d, want 1", cap(x.html))
	}
	x.html <- struct{}{} // the one place, taken
	done := make(chan error)
	go func() {
		_, err := x.Extract([]byte("<p>Terms of Service</p>"), "text/html", "")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("read without a place (err %v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	<-x.html
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if d, _ := New(Options{}); cap(d.html) != DefaultHTMLWorkers {
		t.Errorf("default places = %d, want %d", cap(d.html), DefaultHTMLWorkers)
	}
}
