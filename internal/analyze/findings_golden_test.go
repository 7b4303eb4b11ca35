package analyze

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

// findingsDir holds one readable golden per pinned analysis: its grade,
// score and findings, one finding a line, so that a rule change shows
// which findings it moved (go test ./internal/analyze -run
// TestFindingsGolden -update rewrites them; review the git diff).
const findingsDir = "testdata/findings"

// quoteWords is how much of a quote a golden keeps: enough to recognise
// the sentence, not the document's text.
const quoteWords = 8

// raceEnabled is set by race_test.go in a build with -race.
var raceEnabled bool

// corpusDocs reads shared/data/corpus.
func corpusDocs(tb testing.TB) []corpus.Doc {
	tb.Helper()
	docs, err := corpus.Read(filepath.Join("..", "..", "..", "shared", "data", "corpus", "documents.jsonl.gz"))
	if err != nil || len(docs) == 0 {
		tb.Fatalf("the corpus is what is analyzed: %v", err)
	}
	return docs
}

// docType is the document type the service would pass for a corpus type.
func docType(corpusType string) string {
	switch {
	case strings.Contains(corpusType, "Privacy"):
		return "privacy"
	case strings.Contains(corpusType, "Terms"):
		return "terms"
	}
	return "other"
}

// awkward is text the offsets must survive: invalid UTF-8, CRLF line
// ends, line and paragraph separators, astral symbols, combining marks,
// zero-width spaces and control characters between real clauses.
func awkward(clause string) string {
	return "Terms\r\n\r\n\xff\xfeWe may terminate your account at any time. 👨‍👩‍👧 " + clause +
		"\u2028Cafe\u0301 users\u200b agree.\u2029\x01(a) Any dispute shall be resolved by binding arbitration \xc3 in Zürich. " +
		"日本語の条項。We may sell your data to third parties.\n\n\xf0\x9f\x98 " + clause
}

// goldenFinding is what a golden keeps of a finding.
type goldenFinding struct {
	Case     string `json:"case,omitempty"`
	Rating   string `json:"rating"`
	Category string `json:"category"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Quote    string `json:"quote"` // its first quoteWords words
}

// goldenLines renders an analysis as the lines of its golden: a JSON
// object whose findings come one to a line, so that a line diff is a
// findings diff.
func goldenLines(r Result) []string {
	head, _ := json.Marshal(struct {
		Grade string `json:"grade"`
		Score int    `json:"score"`
	}{r.Grade, r.Score})
	lines := []string{strings.TrimSuffix(string(head), "}") + `,"findings":[`}
	for i, f := range r.Findings {
		words := strings.Fields(f.Quote)
		quote := strings.Join(words[:min(len(words), quoteWords)], " ")
		b, _ := json.Marshal(goldenFinding{f.Case, f.Severity, f.Category, f.Start, f.End, quote})
		if i < len(r.Findings)-1 {
			b = append(b, ',')
		}
		lines = append(lines, "  "+string(b))
	}
	return append(lines, "]}")
}

// lineDiff lists the lines only in want ("- ") and only in got ("+ "),
// each in its file's order: which findings a change removed and added.
func lineDiff(want, got []string) []string {
	count := func(ls []string) map[string]int {
		m := map[string]int{}
		for _, l := range ls {
			m[strings.TrimSuffix(l, ",")]++
		}
		return m
	}
	inWant, inGot := count(want), count(got)
	var out []string
	for _, l := range want {
		if k := strings.TrimSuffix(l, ","); inGot[k] > 0 {
			inGot[k]--
		} else {
			out = append(out, "- "+k)
		}
	}
	for _, l := range got {
		if k := strings.TrimSuffix(l, ","); inWant[k] > 0 {
			inWant[k]--
		} else {
			out = append(out, "+ "+k)
		}
	}
	return out
}

// TestFindingsGolden: the grade, score and findings of every eighth
// corpus document, of the testdata documents, of 1.5 million characters
// of the corpus and of awkward text are those of their goldens; a
// difference is reported finding by finding.
//
// It starts no goroutine of its own beyond Analyze's, and under the race
// detector it would take minutes: make test runs it in its own step
// without the detector.
func TestFindingsGolden(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("analyzes about four million characters; make test runs it without -race")
	}
	docs := corpusDocs(t)
	type input struct{ name, text, typ string }
	var in []input
	for i := 0; i < len(docs); i += 8 {
		in = append(in, input{fmt.Sprintf("corpus-%03d", i), docs[i].Text, docType(docs[i].Type)})
	}
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		in = append(in, input{strings.TrimSuffix(filepath.Base(f), ".txt"), mustRead(t, f), ""})
	}
	in = append(in,
		input{"corpus-1500k", corpus.Text(docs, 1_500_000), "terms"},
		input{"awkward", awkward(docs[0].Text[:2000]), "privacy"})

	e := engine(t)
	var names []string
	for _, d := range in {
		name := d.name + ".json"
		names = append(names, name)
		path := filepath.Join(findingsDir, name)
		got := goldenLines(e.Analyze(d.text, Options{DocumentType: d.typ}))
		if *update {
			if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run go test ./internal/analyze -run TestFindingsGolden -update)", err)
			continue
		}
		want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if slices.Equal(want, got) {
			continue
		}
		diff := lineDiff(want, got)
		if len(diff) > 40 {
			diff = append(diff[:40], fmt.Sprintf("... and %d more lines", len(diff)-40))
		}
		t.Errorf("%s: the analysis changed (- golden, + now; if meant, run go test ./internal/analyze -run TestFindingsGolden -update and review the git diff):\n%s", path, strings.Join(diff, "\n"))
	}
	if !*update {
		// a golden no input writes any more is a stale one
		have, _ := filepath.Glob(filepath.Join(findingsDir, "*.json"))
		for _, h := range have {
			if !slices.Contains(names, filepath.Base(h)) {
				t.Errorf("%s: no analysis is pinned by it (delete it)", h)
			}
		}
	}
}

func TestLineDiff(t *testing.T) {
	want := []string{`{"grade":"D"`, `  {"a":1},`, `  {"b":2},`, `  {"c":3}`, `]}`}
	got := []string{`{"grade":"D"`, `  {"a":1},`, `  {"c":3},`, `  {"d":4}`, `]}`}
	d := lineDiff(want, got)
	if !slices.Equal(d, []string{`-   {"b":2}`, `+   {"d":4}`}) {
		t.Errorf("lineDiff = %q: a finding's trailing comma is no change, a removed and an added one are", d)
	}
}
