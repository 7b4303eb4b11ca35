package analyze

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/corpus"
)

var dumpDir = flag.String("identical.dump", "", "TestAnalysesIdentical: also write each analysis's JSON to this directory (run on both sides of a change, then diff -r)")

// identicalHashes holds, per document, the SHA-256 of the JSON of its
// analysis, first as main produced it before the memory work, since then
// rewritten (-update) by each change meant to change the output; any other
// change of the engine's output shows as a changed hash.
const identicalHashes = "testdata/identical.sha256"

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

// TestAnalysesIdentical: the analysis of every eighth corpus document,
// of the testdata documents, of 1.5 million characters of the corpus and
// of awkward text is byte for byte what it was before the memory work.
//
// It starts no goroutine, so the race detector has nothing to find in it
// and would make it forty times slower: make test runs it in its own step
// without the detector.
func TestAnalysesIdentical(t *testing.T) {
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
		in = append(in, input{filepath.Base(f), mustRead(t, f), ""})
	}
	in = append(in,
		input{"corpus-1500k", corpus.Text(docs, 1_500_000), "terms"},
		input{"awkward", awkward(docs[0].Text[:2000]), "privacy"})

	want := map[string]string{}
	if b, err := os.ReadFile(identicalHashes); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			name, sum, _ := strings.Cut(l, " ")
			want[name] = sum
		}
	} else if !*update {
		t.Fatalf("%v (run go test -run TestAnalysesIdentical -update on the commit to compare with)", err)
	}
	e := engine(t)
	var lines []string
	for _, d := range in {
		got, err := json.Marshal(e.Analyze(d.text, Options{DocumentType: d.typ}))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(got)
		h := hex.EncodeToString(sum[:])
		lines = append(lines, d.name+" "+h)
		if *dumpDir != "" {
			if err := os.WriteFile(filepath.Join(*dumpDir, d.name+".json"), got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if !*update && want[d.name] != h {
			t.Errorf("%s: the analysis changed (sha256 %s, want %s); to see how, run go test ./internal/analyze -run TestAnalysesIdentical -identical.dump DIR here and on the commit that wrote %s, then diff -r the two DIRs", d.name, h, want[d.name], identicalHashes)
		}
	}
	if *update {
		slices.Sort(lines)
		if err := os.WriteFile(identicalHashes, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
