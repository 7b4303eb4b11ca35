package main

import (
	"fmt"
	"os"
	"path/filepath"

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

// newExtractor makes the extractor, its compiled PDF reader cached in
// CLAUSEWATCH_PDF_CACHE_DIR, by default the user cache directory's
// clausewatch/wazero (none where there is no user cache directory), reading
// CLAUSEWATCH_HTML_CONCURRENCY HTML pages at once. The caller closes it.
func newExtractor(cfg config.Config, preparing func() func()) (*extract.Extractor, error) {
	dir := cfg.PDFCacheDir
	if dir == "" {
		if cache, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(cache, "clausewatch", "wazero")
		}
	}
	x, err := extract.New(extract.Options{CacheDir: dir, Preparing: preparing, HTMLWorkers: cfg.HTMLConcurrency})
	if err != nil {
		return nil, fmt.Errorf("CLAUSEWATCH_PDF_CACHE_DIR: %w", err)
	}
	return x, nil
}
