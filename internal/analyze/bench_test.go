package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkClassify measures sentences classified per second on one core
// over the validation sentences (tokenised, lower-cased).
func BenchmarkClassify(b *testing.B) {
	exs, err := ReadExamples(filepath.Join("..", "..", "..", "shared", "data", "clauses", "validation.jsonl"))
	if err != nil || len(exs) == 0 {
		// fall back to the golden documents' sentences
		exs = nil
		for _, s := range strings.Split(unfairTerms+benignPrivacy, ".") {
			exs = append(exs, Example{Text: s + "."})
		}
	}
	if _, err := ModelInfo(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		Classify(exs[i%len(exs)].Text)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "sentences/s")
}

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
	text := tenKWords(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Analyze(text, Options{DocumentType: "privacy"})
	}
}
