package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/config"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// newAnalyzer loads the models every command that analyzes needs: without
// them every document would be graded with no unfair clause found, so
// those commands refuse to start instead.
func newAnalyzer() (*analyze.Engine, error) {
	e, err := loadAnalyzer()
	if err != nil {
		return nil, fmt.Errorf("the analysis models cannot be loaded, so nothing can be analyzed: %w", err)
	}
	return e, nil
}

// loadAnalyzer is replaced by tests with a failing load.
var loadAnalyzer = analyze.Load

// newExtractor makes the extractor, reading PDFs in worker processes of
// this executable (the hidden pdf-worker command), whose compiled PDF
// reader is cached in pdfCacheDir. The caller calls the close function
// returned after the last extraction.
func newExtractor(cfg config.Config, preparing func() func()) (*extract.Extractor, func() error, error) {
	dir := pdfCacheDir(cfg)
	if dir != "" {
		// Made here, so an unusable directory stops the command at start
		// rather than every worker on the first PDF.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, fmt.Errorf("CLAUSEWATCH_PDF_CACHE_DIR: %w", err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("finding this program to start PDF workers: %w", err)
	}
	// The workers keep their compiled reader where this process said, not
	// where their own environment would.
	env := append(os.Environ(), "CLAUSEWATCH_PDF_CACHE_DIR="+dir)
	workers := extract.NewWorkers(extract.WorkerOptions{
		Command: exe, Args: []string{pdfWorkerCommand}, Env: env,
		Size: cfg.PDFWorkers, CPU: cfg.PDFCPUBudget, Wall: pdfWall, Memory: pdfWorkerMemory,
		Preparing: preparing,
	})
	x, err := extract.New(extract.Options{Workers: workers, HTMLWorkers: cfg.HTMLConcurrency})
	if err != nil {
		workers.Close()
		return nil, nil, err
	}
	return x, func() error { return errors.Join(x.Close(), workers.Close()) }, nil
}

const (
	// pdfWorkerCommand is the hidden command a PDF worker runs.
	pdfWorkerCommand = "pdf-worker"
	// pdfWall bounds the time one PDF takes, whatever the load: far above
	// what the CPU budget allows on a busy machine, it stops a worker that
	// waits without working (and bounds the time where the system does not
	// tell a process's CPU time).
	pdfWall = 30 * time.Second
	// pdfWorkerMemory bounds each worker's resident memory: an idle worker
	// holds 75 MB, PDFium's sandbox may grow to 512 MiB, and the text read
	// from it is bounded.
	pdfWorkerMemory = 1 << 30
)

// pdfCacheDir is where the compiled PDF reader is kept:
// CLAUSEWATCH_PDF_CACHE_DIR, by default the user cache directory's
// clausewatch/wazero (none where there is no user cache directory).
func pdfCacheDir(cfg config.Config) string {
	if cfg.PDFCacheDir != "" {
		return cfg.PDFCacheDir
	}
	if cache, err := os.UserCacheDir(); err == nil {
		return filepath.Join(cache, "clausewatch", "wazero")
	}
	return ""
}

// runPDFWorker is the hidden command the extractor's workers run: it reads
// the PDFs sent on standard input in this process and answers on standard
// output, until its input closes (extract.Workers).
func runPDFWorker(getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	x, err := extract.New(extract.Options{CacheDir: pdfCacheDir(cfg)})
	if err != nil {
		return fmt.Errorf("CLAUSEWATCH_PDF_CACHE_DIR: %w", err)
	}
	defer x.Close()
	return x.ServePDF(stdin, stdout)
}
