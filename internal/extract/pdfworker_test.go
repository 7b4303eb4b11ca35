package extract

import (
	"bytes"
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
			var held [][]byte
			for {
				b := make([]byte, 64<<20)
				for i := range b {
					b[i] = 1
				}
				held = append(held, b)
			}
		case bytes.Equal(raw, exitPDF):
			os.Exit(3)
		}
		return answer(raw)
	}
}

var spinSink int

// The bounds of the package's test workers: the service's defaults
// (config), which every dev PDF reads well within.
const (
	testCPU    = 5 * time.Second
	testMemory = 2 << 30
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
	const cpu, wall = 500 * time.Millisecond, 3 * time.Second
	w := testWorkers(t, WorkerOptions{Size: 1, CPU: cpu, Wall: wall, Memory: 2 << 30})
	x, err := newTestExtractor(w)
	if err != nil {
		t.Fatal(err)
	}
	mustReadPDF(t, x) // the worker is warm: its start is not timed below
	tests := []struct {
		name   string
		raw    []byte
		want   error
		saying string
		within time.Duration
	}{
		{"endless loop", spinPDF, ErrTooComplex, "of CPU", wall},
		{"endless wait", sleepPDF, ErrTooComplex, "to read", wall + time.Second},
		{"memory", allocPDF, ErrTooComplex, "memory", wall},
		{"exit", exitPDF, ErrUnsupported, "reader stopped", wall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
