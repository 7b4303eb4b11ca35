package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

// tenKWords builds a 10,000-word policy from the golden documents.
func tenKWords(b *testing.B) string {
	files, _ := filepath.Glob("testdata/*.txt")
	var parts []string
	for _, f := range files {
		parts = append(parts, mustRead(b, f))
	}
	parts = append(parts, unfairTerms, benignPrivacy)
	var sb strings.Builder
	words := 0
	for i := 0; words < 10000; i++ {
		p := parts[i%len(parts)]
		sb.WriteString(p)
		sb.WriteString("\n\n")
		words += len(strings.Fields(p))
	}
	return sb.String()
}

func BenchmarkAnalyze10kWords(b *testing.B) {
	benchAnalyze(b, tenKWords(b), "privacy")
}

// BenchmarkAnalyze1500k analyzes 1.5 million characters of real legal text
// (the longest text the service accepts): its allocations are the memory
// one analysis holds while eight run at once (make bench's memory row).
func BenchmarkAnalyze1500k(b *testing.B) {
	benchAnalyze(b, corpus.Text(corpusDocs(b), 1_500_000), "terms")
}

// benchAnalyze analyzes text as a document of type typ b.N times.
func benchAnalyze(b *testing.B, text, typ string) {
	e := engine(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Analyze(text, Options{DocumentType: typ})
	}
}
