package extract

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"codeberg.org/readeck/go-readability/v2"
	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/requests"
)

// sharedData is the dev set beside the repository (../shared from the
// repository root).
var sharedData = filepath.Join("..", "..", "..", "shared", "data", "extract")

type page struct {
	id  string
	raw []byte
}

func loadHTMLPages(tb testing.TB) []page { return loadPages(tb, "html") }

func loadPages(tb testing.TB, ext string) []page {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(sharedData, "*."+ext))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no pages in %s: %v", sharedData, err)
	}
	var pages []page
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, page{id: strings.TrimSuffix(filepath.Base(f), "."+ext), raw: raw})
	}
	return pages
}

func totalBytes(pages []page) int64 {
	var n int64
	for _, p := range pages {
		n += int64(len(p.raw))
	}
	return n
}

// BenchmarkExtract measures our extractor over the shared HTML pages, in
// MB/s of HTML.
func BenchmarkExtract(b *testing.B) {
	pages := loadHTMLPages(b)
	x := testExtractor(b)
	b.SetBytes(totalBytes(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			if _, err := x.Extract(p.raw, "text/html", "https://example.com/legal"); err != nil {
				b.Fatal(p.id, err)
			}
		}
	}
}

// BenchmarkReadability runs go-readability over the same pages, for
// comparison in the same run.
func BenchmarkReadability(b *testing.B) {
	pages := loadHTMLPages(b)
	u, _ := url.Parse("https://example.com/legal")
	b.SetBytes(totalBytes(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			art, err := readability.FromReader(bytes.NewReader(p.raw), u)
			if err != nil {
				b.Fatal(p.id, err)
			}
			var sb strings.Builder
			if err := art.RenderText(&sb); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExtractPDF measures our PDF reader over the shared PDFs, as the
// service reads them (in a worker process), in MB/s of PDF and in CPU
// seconds per pass over the 20 PDFs: this process's (the garbage
// collector included) and the worker's. The worker is started and its
// engine compiled before the clock starts.
func BenchmarkExtractPDF(b *testing.B) {
	pages := loadPages(b, "pdf")
	w := testWorkers(b, WorkerOptions{Size: 1, CPU: time.Minute, Wall: time.Minute})
	x, err := newTestExtractor(w)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := x.Extract(pages[0].raw, "application/pdf", ""); err != nil {
		b.Fatal(pages[0].id, err)
	}
	b.SetBytes(totalBytes(pages))
	cpu := cpuClock(b, syscall.RUSAGE_SELF)
	worker := workersCPU(b, w)
	for b.Loop() {
		for _, p := range pages {
			if _, err := x.Extract(p.raw, "application/pdf", ""); err != nil {
				b.Fatal(p.id, err)
			}
		}
	}
	cpu(worker())
}

// workersCPU starts counting the CPU time of the pool's idle workers and
// returns the function that tells how much they used since.
func workersCPU(b *testing.B, w *Workers) func() time.Duration {
	used := func() time.Duration {
		w.mu.Lock()
		defer w.mu.Unlock()
		var sum time.Duration
		for _, wk := range w.idle {
			d, ok := cpuTime(wk.cmd.Process.Pid)
			if !ok {
				b.Fatal("the worker's CPU time cannot be read here")
			}
			sum += d
		}
		return sum
	}
	start := used()
	return func() time.Duration { return used() - start }
}

// BenchmarkPDFiumFloor is the least any reader built on PDFium pays for
// the same PDFs: a fresh instance per document, each page and its text
// page loaded and the text read in one call, no geometry and no layout.
// BenchmarkExtractPDF's ratio to it is what the per-line questions and
// the layout cost; its ratio to pdftotext is what PDFium in WebAssembly
// costs before any of our code.
func BenchmarkPDFiumFloor(b *testing.B) {
	pages := loadPages(b, "pdf")
	pool, err := testExtractor(b).pdfRuntime()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(totalBytes(pages))
	cpu := cpuClock(b, syscall.RUSAGE_SELF)
	for b.Loop() {
		for _, p := range pages {
			if err := loadPDFPages(pool, p.raw); err != nil {
				b.Fatal(p.id, err)
			}
		}
	}
	cpu()
}

func loadPDFPages(pool pdfium.Pool, raw []byte) error {
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return err
	}
	defer inst.Close()
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &raw})
	if err != nil {
		return err
	}
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return err
	}
	for i := range count.PageCount {
		tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
		if err != nil {
			return err
		}
		n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
		if err != nil {
			return err
		}
		if _, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, Count: n.Count}); err != nil {
			return err
		}
		if _, err := inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}); err != nil {
			return err
		}
	}
	_, err = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	return err
}

// cpuClock starts counting the CPU time of who (the process itself, or
// its finished children) and returns the function that reports it, with
// the CPU time of other processes given to it, per operation as cpu-s/op, the figure to compare between processes (wall
// time hides what the other core did).
func cpuClock(b *testing.B, who int) func(others ...time.Duration) {
	used := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := used()
	return func(others ...time.Duration) {
		total := used() - start
		for _, d := range others { // other processes' CPU, for the same work
			total += d
		}
		b.ReportMetric(total.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkPdftotext runs poppler's pdftotext over the same PDFs, for
// comparison in the same run (a yardstick only, never used at run time).
func BenchmarkPdftotext(b *testing.B) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		b.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	files, _ := filepath.Glob(filepath.Join(sharedData, "*.pdf"))
	b.SetBytes(totalBytes(loadPages(b, "pdf")))
	cpu := cpuClock(b, syscall.RUSAGE_CHILDREN)
	for b.Loop() {
		for _, f := range files {
			if err := exec.Command(bin, "-enc", "UTF-8", f, os.DevNull).Run(); err != nil {
				b.Fatal(f, err)
			}
		}
	}
	cpu()
}
