package extract

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// devPDFs is four dev PDFs (of several producers) and a PDFium instance
// to read them with, closed when the test ends.
func devPDFs(t *testing.T) ([]string, pdfium.Pdfium) {
	t.Helper()
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
	t.Cleanup(func() { inst.Close() })
	return files, inst
}

// A page's text read in one call (pageUnicode) is, character for
// character, what PDFium gives one character at a time (as pageLines reads
// them), on dev PDFs of several producers.
func TestPageUnicodeInBulkEqualsPerCharacter(t *testing.T) {
	files, inst := devPDFs(t)
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

// The geometry asked of the module directly (pageGeometry) is, number for
// number, what go-pdfium's calls answer, and a font's boldness asked once
// per font is what each character's own font weight and name tell.
func TestPageGeometryEqualsGoPdfium(t *testing.T) {
	files, inst := devPDFs(t)
	mod, err := moduleOf(inst)
	if err != nil {
		t.Fatal(err)
	}
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
		for i := range min(count.PageCount, 2) {
			tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
			if err != nil {
				t.Fatal(err)
			}
			n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
			if err != nil {
				t.Fatal(err)
			}
			geo, err := mod.page(tp.TextPage)
			if err != nil {
				t.Fatal(err)
			}
			pr := pageReader{inst: inst, tp: tp.TextPage, geo: geo, bold: map[uint64]bool{}}
			at := fmt.Sprintf("%s page %d", filepath.Base(f), i)
			for c := 0; c < n.Count; c += 7 {
				mustSameGeometry(t, at, inst, tp.TextPage, geo, c)
				want := false
				if w, err := inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: tp.TextPage, Index: c}); err == nil {
					want = w.FontWeight >= 600
				}
				if fi, err := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp.TextPage, Index: c}); err == nil && !want {
					want = boldFont(fi.FontName)
				}
				if got := pr.boldAt(c); got != want {
					t.Fatalf("%s char %d: bold %v once per font, %v asked alone", at, c, got, want)
				}
			}
			nr, err := inst.FPDFText_CountRects(&requests.FPDFText_CountRects{TextPage: tp.TextPage, StartIndex: 0, Count: n.Count})
			if err != nil {
				t.Fatal(err)
			}
			if got := geo.countRects(0, n.Count); got != nr.Count {
				t.Fatalf("%s: %d rects, go-pdfium %d", at, got, nr.Count)
			}
			for k := range nr.Count {
				got, ok := geo.rect(k)
				want, err := inst.FPDFText_GetRect(&requests.FPDFText_GetRect{TextPage: tp.TextPage, Index: k})
				if ok != (err == nil) || ok && got != (pdfRect{want.Left, want.Top, want.Right, want.Bottom}) {
					t.Fatalf("%s rect %d: %v %v, go-pdfium %v %v", at, k, got, ok, want, err)
				}
				if !ok {
					continue
				}
				x, y := got.left+0.5, (got.top+got.bottom)/2
				gotAt := geo.charAt(x, y, 0.5, 1)
				wantAt, err := inst.FPDFText_GetCharIndexAtPos(&requests.FPDFText_GetCharIndexAtPos{TextPage: tp.TextPage, X: x, Y: y, XTolerance: 0.5, YTolerance: 1})
				if err != nil || gotAt != wantAt.CharIndex {
					t.Fatalf("%s rect %d: char %d at its left, go-pdfium %v %v", at, k, gotAt, wantAt, err)
				}
			}
			geo.close()
			_, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
		}
		_, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	}
}

func mustSameGeometry(t *testing.T, at string, inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, geo *pageGeometry, c int) {
	t.Helper()
	left, ok := geo.charLeft(c)
	box, err := inst.FPDFText_GetCharBox(&requests.FPDFText_GetCharBox{TextPage: tp, Index: c})
	if ok != (err == nil) || ok && left != box.Left {
		t.Fatalf("%s char %d: left %v %v, go-pdfium %v %v", at, c, left, ok, box, err)
	}
	y, ok := geo.baseline(c)
	origin, err := inst.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp, Index: c})
	if ok != (err == nil) || ok && y != origin.Y {
		t.Fatalf("%s char %d: baseline %v %v, go-pdfium %v %v", at, c, y, ok, origin, err)
	}
	h, ok := geo.looseHeight(c)
	loose, err := inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: tp, Index: c})
	if ok != (err == nil) || ok && h != math.Abs(float64(loose.Rect.Top-loose.Rect.Bottom)) {
		t.Fatalf("%s char %d: height %v %v, go-pdfium %v %v", at, c, h, ok, loose, err)
	}
}
