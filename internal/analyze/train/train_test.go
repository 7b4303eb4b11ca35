package train

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadExamples(t *testing.T) {
	p := writeFile(t, "ex.jsonl", `{"doc":"A","text":"we may end it","labels":["unilateral_termination"]}`+"\n\n"+
		`{"doc":"B","text":"hello","labels":[]}`+"\n")
	got, err := ReadExamples(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{{Doc: "A", Text: "we may end it", Labels: []string{"unilateral_termination"}}, {Doc: "B", Text: "hello", Labels: []string{}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ReadExamples = %v, want %v", got, want)
	}
}

func TestReadExamplesNamesTheBadLine(t *testing.T) {
	p := writeFile(t, "ex.jsonl", `{"doc":"A","text":"ok","labels":[]}`+"\n"+`{"doc":`+"\n")
	_, err := ReadExamples(p)
	if err == nil || !strings.Contains(err.Error(), "ex.jsonl:2:") {
		t.Errorf("err = %v, want one naming ex.jsonl:2", err)
	}
}

func TestReadPrivacyLabelsRefusesAnUnknownCategory(t *testing.T) {
	p := writeFile(t, "labels.jsonl", `{"service":"S","text":"We collect your email.","labels":["data_collection"]}`+"\n"+
		`{"service":"S","text":"x","labels":["astrology"]}`+"\n")
	_, err := ReadPrivacyLabels(p)
	if err == nil || !strings.Contains(err.Error(), `labels.jsonl:2: unknown category "astrology"`) {
		t.Errorf("err = %v, want the unknown category on line 2", err)
	}
}

// Evaluate counts as LexGLUE does: a sentence with no label is a "none"
// label of its own, and micro F1 pools every column.
func TestEvaluate(t *testing.T) {
	gold := [][]string{{"unilateral_termination"}, {}, {"arbitration"}, {}}
	pred := [][]string{{"unilateral_termination"}, {"arbitration"}, {}, {}}
	m := Evaluate(gold, pred)
	col := func(l string) PRF {
		i := slices.IndexFunc(m.Columns, func(c PRF) bool { return c.Label == l })
		return m.Columns[i]
	}
	if c := col("unilateral_termination"); c.TP != 1 || c.FP != 0 || c.FN != 0 || c.F1 != 100 {
		t.Errorf("termination column %+v, want one true positive, F1 100", c)
	}
	if c := col("arbitration"); c.TP != 0 || c.FP != 1 || c.FN != 1 {
		t.Errorf("arbitration column %+v, want a false positive and a false negative", c)
	}
	if c := col("none"); c.TP != 1 || c.FP != 1 || c.FN != 1 {
		t.Errorf("none column %+v, want one of each", c)
	}
	// pooled: TP 2, FP 2, FN 2
	if m.Micro9 != 50 {
		t.Errorf("Micro9 = %v, want 50", m.Micro9)
	}
	if perfect := Evaluate(gold, gold); perfect.Micro9 != 100 {
		t.Errorf("perfect predictions score Micro9 %v, want 100", perfect.Micro9)
	}
}

// A group never straddles folds, so a service's sentences are held out
// together.
func TestGroupFolds(t *testing.T) {
	items := []string{"a", "b", "a", "c", "d", "b", "e"}
	folds := GroupFolds(items, func(s string) string { return s }, 3)
	seen := map[string]int{}
	used := map[int]bool{}
	for i, it := range items {
		if f, ok := seen[it]; ok && f != folds[i] {
			t.Errorf("group %q in folds %d and %d", it, f, folds[i])
		}
		seen[it] = folds[i]
		used[folds[i]] = true
	}
	if len(used) != 3 {
		t.Errorf("folds used %v, want all 3", used)
	}
}

// tinyClauses is a fixture small enough to train in a test: termination
// clauses and plain sentences from twelve made-up services, worded a little
// differently each, so a held-out service still shares words with the rest.
func tinyClauses() []Example {
	subjects := []string{"We", "The Company", "Acme", "The provider", "Our team", "The service"}
	ends := []string{"at any time", "at our sole discretion", "without notice", "for any reason"}
	var out []Example
	for s := range 12 {
		doc := fmt.Sprintf("service%02d", s)
		for i := range 4 {
			out = append(out,
				Example{Doc: doc, Text: fmt.Sprintf("%s may suspend or terminate your account %s.", subjects[(s+i)%6], ends[(s+i)%4]), Labels: []string{"unilateral_termination"}},
				Example{Doc: doc, Text: fmt.Sprintf("%s offers recipes, maps and weather forecasts number %d for hikers.", subjects[(s+i)%6], i), Labels: []string{}},
			)
		}
	}
	return out
}

// End to end on the tiny fixture: the service-grouped cross-validation
// predicts each held-out service's termination clauses and leaves its
// plain sentences alone, and the model it returns covers every label.
func TestTrainCVOnATinyFixture(t *testing.T) {
	exs := tinyClauses()
	cfg := ClauseConfig
	cfg.Features.Bits, cfg.Epochs, cfg.MinDF = 12, 20, 1
	m, honest := TrainCV(exs, cfg)
	if len(honest) != len(exs) {
		t.Fatalf("%d honest predictions for %d examples", len(honest), len(exs))
	}
	if got := Evaluate(Labels(exs), honest); got.Micro9 < 90 {
		t.Errorf("cross-validated micro F1 %.1f on a separable fixture, want >= 90", got.Micro9)
	}
	if m == nil || len(m.Buckets) == 0 {
		t.Fatal("TrainCV returned no model")
	}
	// Deterministic: the same data and seed give the same predictions.
	if _, again := TrainCV(exs, cfg); fmt.Sprint(again) != fmt.Sprint(honest) {
		t.Error("two runs with one seed predicted differently")
	}
}
