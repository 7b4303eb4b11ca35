package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/klippa-app/go-pdfium/requests"
)

// A page's text read in one call (pageUnicode) is, character for
// character, what PDFium gives one character at a time (as pageLines reads
// them), on dev PDFs of several producers.
func TestPageUnicodeInBulkEqualsPerCharacter(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedData, "*.pdf"))
	if len(files) == 0 {
		t.Fatalf("no PDFs in %s", sharedData)
	}
	if len(files) > 4 {
		files = files[:4]
	}
	pool, err := testExtractor(t).pdfRuntime()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := inst.OpenDocument(&requests.OpenDocument{File: &raw})
		if err != nil {
			t.Fatal(err)
		}
		count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
		if err != nil {
			t.Fatal(err)
		}
		bulkPages := 0
		for i := range min(count.PageCount, 5) {
			tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
			if err != nil {
				t.Fatal(err)
			}
			n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
			if err != nil {
				t.Fatal(err)
			}
			got, err := pageUnicode(inst, tp.TextPage, n.Count)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != n.Count {
				t.Fatalf("%s page %d: %d codes for %d characters", f, i, len(got), n.Count)
			}
			if t2, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, Count: n.Count}); err == nil && len([]rune(t2.Text)) >= n.Count {
				bulkPages++
			}
			for c := range n.Count {
				u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: c})
				if err != nil {
					t.Fatal(err)
				}
				// PDFium's text spells its soft-hyphen mark (2) U+FFFE;
				// pageLines drops both alike.
				skipped := func(r rune) bool { return r == 0 || r == 2 || r == 0xfffe }
				if alone := rune(u.Unicode); alone != got[c] && !(skipped(alone) && skipped(got[c])) {
					t.Fatalf("%s page %d char %d: %U in bulk, %U alone", f, i, c, got[c], rune(u.Unicode))
				}
			}
			_, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
		}
		_, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
		if bulkPages == 0 {
			t.Errorf("%s: no page read in one call", f)
		}
	}
}
