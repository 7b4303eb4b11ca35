package analyze_test

import (
	"path/filepath"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// BenchmarkClassify measures sentences classified per second on one core
// over the validation sentences (tokenised, lower-cased).
func BenchmarkClassify(b *testing.B) {
	benchSentences(b, func(e *analyze.Engine, s string) { e.Classify(s) })
}

// BenchmarkClassifyWithCases is BenchmarkClassify with the case detector:
// each sentence is classified and its ToS;DR cases detected.
func BenchmarkClassifyWithCases(b *testing.B) {
	benchSentences(b, func(e *analyze.Engine, s string) {
		e.Classify(s)
		e.DetectCases(s)
	})
}

func benchSentences(b *testing.B, classify func(*analyze.Engine, string)) {
	exs, err := train.ReadExamples(filepath.Join("..", "..", "..", "shared", "data", "clauses", "validation.jsonl"))
	if err != nil || len(exs) == 0 {
		b.Fatalf("the validation sentences are what is measured: %v", err)
	}
	e, err := analyze.Load()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		classify(e, exs[i%len(exs)].Text)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "sentences/s")
}
