package extract

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// testWorkerEnv makes the test binary a PDF worker: started with it set,
// the binary serves PDFs on its standard input and output instead of
// running the tests, so the package's tests read PDFs through real worker
// processes (see testExtractor) with no other binary to build.
const testWorkerEnv = "CLAUSEWATCH_EXTRACT_TEST_WORKER"

// Inputs the test worker misbehaves on, to prove the watchdog on a worker
// that is stuck in each way a hostile PDF could leave one.
var (
	spinPDF  = []byte("%PDF-test: loop on the CPU")
	sleepPDF = []byte("%PDF-test: wait forever")
	allocPDF = []byte("%PDF-test: allocate until stopped")
	exitPDF  = []byte("%PDF-test: exit")
)

func TestMain(m *testing.M) {
	if os.Getenv(testWorkerEnv) == "" {
		os.Exit(m.Run())
	}
	x, err := newTestExtractor(nil)
	if err == nil {
		_, err = x.pdfRuntime()
	}
	if err := servePDF(os.Stdin, os.Stdout, err, misbehaving(x.answerPDF)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// misbehaving answers real PDFs with answer and the test inputs above as
// they say.
func misbehaving(answer func([]byte) pdfAnswer) func([]byte) pdfAnswer {
	return func(raw []byte) pdfAnswer {
		switch {
		case bytes.Equal(raw, spinPDF):
			for n := 0; ; n++ {
				spinSink = n
			}
		case bytes.Equal(raw, sleepPDF):
			select {}
		case bytes.Equal(raw, allocPDF):
			for {
				b := make([]byte, 64<<20)
				for i := 0; i < len(b); i += 4096 { // resident: a write per page
					b[i] = 1
				}
				allocSink = append(allocSink, b)
			}
		case bytes.Equal(raw, exitPDF):
			os.Exit(3)
		}
		return answer(raw)
	}
}

var spinSink int

// allocSink holds what the misbehaving worker allocates, so none of it is
// collected.
var allocSink [][]byte

// The bounds of the package's test workers (testExtractor): looser than
// the service's (2 s of CPU), since under -race the worker's Go side runs
// several times slower, and a loaded machine stretches the wall clock.
const (
	testCPU    = 5 * time.Second
	testWall   = time.Minute
	testMemory = 1 << 30
)

// newTestExtractor makes an Extractor with the compile cache serve keeps
// by default (test runs after the first start fast), reading PDFs with
// workers when given.
func newTestExtractor(w *Workers) (*Extractor, error) {
	o := Options{Workers: w}
	if dir, err := os.UserCacheDir(); err == nil {
		o.CacheDir = dir + "/clausewatch/wazero"
	}
	return New(o)
}

// testWorkers starts the package's test binary as workers under o's
// bounds, closed when the test ends.
func testWorkers(tb testing.TB, o WorkerOptions) *Workers {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	o.Command, o.Env = exe, append(os.Environ(), testWorkerEnv+"=1")
	w := NewWorkers(o)
	tb.Cleanup(func() { w.Close() })
	return w
}

// mustReadPDF reads a small real PDF through x and checks its text: the
// service is alive.
func mustReadPDF(t *testing.T, x *Extractor) {
	t.Helper()
	doc, err := x.Extract(makePDF("BT /F1 12 Tf 72 720 Td (Terms of Use) Tj ET"), "application/pdf", "")
	if err != nil {
		t.Fatalf("a one-page PDF after the breach: %v", err)
	}
	if doc.Text != "Terms of Use" {
		t.Fatalf("a one-page PDF after the breach: text %q", doc.Text)
	}
}

// A worker stuck on a PDF, on the CPU, asleep, growing its memory or dead,
// is killed within its deadline and answered with a clear error; the next
// PDF is read by a fresh worker.
func TestWatchdogKillsStuckWorker(t *testing.T) {
	// The wall-clock deadline is far above the CPU budget: under the load
	// of parallel tests, the budget's worth of CPU can take seconds.
	const cpu, wall = 300 * time.Millisecond, 10 * time.Second
	w := testWorkers(t, WorkerOptions{Size: 1, CPU: cpu, Wall: wall, Memory: 512 << 20})
	x, err := newTestExtractor(w)
	if err != nil {
		t.Fatal(err)
	}
	mustReadPDF(t, x) // the worker is warm: its start is not timed below
	// Growing to the memory limit takes more than the CPU budget under the
	// race detector: that worker's CPU budget is the wall deadline, so the
	// memory limit is what stops it.
	wm := testWorkers(t, WorkerOptions{Size: 1, CPU: wall, Wall: wall, Memory: 512 << 20})
	xm, err := newTestExtractor(wm)
	if err != nil {
		t.Fatal(err)
	}
	mustReadPDF(t, xm)
	tests := []struct {
		name   string
		x      *Extractor
		raw    []byte
		want   error
		saying string
		within time.Duration
	}{
		{"endless loop", x, spinPDF, ErrTooComplex, "of CPU", wall},
		{"endless wait", x, sleepPDF, ErrTooComplex, "to read", wall + 2*time.Second},
		{"memory", xm, allocPDF, ErrTooComplex, "MB of memory", wall},
		{"exit", x, exitPDF, ErrUnsupported, "reader stopped", wall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := tt.x
			start := time.Now()
			_, err := x.Extract(tt.raw, "application/pdf", "")
			if took := time.Since(start); took > tt.within {
				t.Errorf("answered after %v, want within %v", took, tt.within)
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.saying) {
				t.Errorf("err = %v, want %v saying %q", err, tt.want, tt.saying)
			}
			mustReadPDF(t, x)
		})
	}
}

// A PDF's errors come back from the worker as the same errors, in the
// same words: the caller cannot tell where the PDF was read.
func TestWorkerKeepsTheErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
		want error
	}{
		{"image only", makePDF("q 100 0 0 100 0 0 cm /Im1 Do Q"), ErrNoText},
		{"broken", []byte("%PDF-1.4\ngarbage"), ErrUnsupported},
		{"10,000 pages", manyPagesPDF(10_000), ErrTooComplex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := testExtractor(t)
			_, err := x.Extract(tt.raw, "application/pdf", "")
			_, _, _, inProcess := x.extractPDF(tt.raw)
			if !errors.Is(err, tt.want) || inProcess == nil || err.Error() != inProcess.Error() {
				t.Errorf("err = %v, want %v as in process: %v", err, tt.want, inProcess)
			}
		})
	}
}

// streamBombPDF builds a PDF of n pages that all draw one content stream
// of 20,000 empty text runs (deflated: the file stays small), so each page
// costs PDFium the whole stream: at 1,999 pages, 0.3 MB that took 19 s of
// CPU to read when nothing bounded the CPU of one document.
func streamBombPDF(t *testing.T, n int) []byte {
	content := "BT /F1 12 Tf 72 720 Td (A page) Tj " + strings.Repeat("() Tj ", 20_000) + "ET"
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the page tree, once the page numbers are known
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
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

// Hostile PDFs are refused within their bound and leave the reader
// working: the stream bomb at the CPU budget (its worker killed), a
// decompression bomb and a huge page count before any page is read.
func TestHostilePDFsRefusedWithinTheirBounds(t *testing.T) {
	const cpu, wall = time.Second, 30 * time.Second
	w := testWorkers(t, WorkerOptions{Size: 1, CPU: cpu, Wall: wall, Memory: testMemory})
	x, err := newTestExtractor(w)
	if err != nil {
		t.Fatal(err)
	}
	mustReadPDF(t, x) // the worker is warm: its start is not timed below
	tests := []struct {
		name   string
		raw    []byte
		saying string
	}{
		{"1,999 pages sharing one stream", streamBombPDF(t, 1999), "of CPU"},
		{"stream inflating to 1 GiB", flatePDF(t, 1<<30), "expands to more than"},
		{"10,000 pages", manyPagesPDF(10_000), "pages, more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := x.Extract(tt.raw, "application/pdf", "")
			if took := time.Since(start); took > wall {
				t.Errorf("answered after %v", took)
			}
			if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), tt.saying) {
				t.Errorf("err = %v, want ErrTooComplex saying %q", err, tt.saying)
			}
			mustReadPDF(t, x)
		})
	}
}

// A worker reads a PDF to the same text, Markdown and title as this
// process does, byte for byte, on dev PDFs of several producers.
func TestWorkerReadsAsInProcess(t *testing.T) {
	files, _ := devPDFs(t)
	x := testExtractor(t)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, md, title, err := x.readPDFText(raw)
		if err != nil {
			t.Fatalf("%s in a worker: %v", f, err)
		}
		wantText, wantMD, wantTitle, err := x.extractPDF(raw)
		if err != nil {
			t.Fatalf("%s in process: %v", f, err)
		}
		if text != wantText || md != wantMD || title != wantTitle {
			t.Errorf("%s: a worker read %d and %d bytes titled %q, this process %d and %d titled %q",
				f, len(text), len(md), title, len(wantText), len(wantMD), wantTitle)
		}
	}
}
