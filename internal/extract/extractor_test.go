package extract

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// testExtractor is one Extractor for the package's tests, reading PDFs in
// worker processes (the test binary itself: pdfworker_test.go) under the
// service's bounds, its compiled PDF reader cached where serve keeps it
// by default, so that test runs after the first start fast.
var testExtractor = func() func(testing.TB) *Extractor {
	get := sync.OnceValues(func() (*Extractor, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		return newTestExtractor(NewWorkers(WorkerOptions{Command: exe, Env: append(os.Environ(), testWorkerEnv+"=1"),
			Size: pdfWorkers, CPU: testCPU, Wall: testWall, Memory: testMemory}))
	})
	return func(tb testing.TB) *Extractor {
		tb.Helper()
		x, err := get()
		if err != nil {
			tb.Fatal(err)
		}
		return x
	}
}()

// The cache directory is made when the extractor is, and one that cannot be
// is an error then, not on the first PDF.
func TestNewMakesTheCacheDirOrFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "pdf")
	x, err := New(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("cache directory %s: %v", dir, err)
	}
	if err := x.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{CacheDir: filepath.Join(file, "pdf")}); err == nil {
		t.Error("a cache directory under a file was accepted")
	}
}

// A closed extractor reads no more PDFs, and still reads HTML and text
// (which need no runtime).
func TestClosedExtractorReadsNoPDF(t *testing.T) {
	x, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Extract(makePDF("BT /F1 12 Tf 72 720 Td (Hi) Tj ET"), "application/pdf", ""); !errors.Is(err, errClosed) {
		t.Errorf("a PDF after Close: %v, want the extractor closed", err)
	}
	if _, err := x.Extract([]byte("Terms\n\nText"), "text/plain", ""); err != nil {
		t.Errorf("text after Close: %v", err)
	}
}
