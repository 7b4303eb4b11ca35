package main

import (
	"io"
	"math"
	"strings"
	"testing"
)

// Cohen's kappa on a textbook table: 50 items, the raters agree on 20 yes
// and 15 no; rater A says yes 25 times, B 30 times. Observed 0.7, expected
// 0.5*0.6 + 0.5*0.4 = 0.5, kappa 0.4.
func TestKappaOfATextbookTable(t *testing.T) {
	var a, b []string
	add := func(n int, x, y string) {
		for range n {
			a, b = append(a, x), append(b, y)
		}
	}
	add(20, "yes", "yes")
	add(5, "yes", "no")
	add(10, "no", "yes")
	add(15, "no", "no")
	obs, k := kappa(a, b)
	if math.Abs(obs-0.7) > 1e-9 || math.Abs(k-0.4) > 1e-9 {
		t.Fatalf("observed %.3f kappa %.3f, want 0.700 and 0.400", obs, k)
	}
	if _, k := kappa([]string{"x", "x"}, []string{"x", "x"}); k != 1 {
		t.Fatalf("two raters agreeing on one label: kappa %.2f, want 1", k)
	}
}

func TestAgreementJoinsOnSourceAndSentence(t *testing.T) {
	l := func(sentence int, kind, c string) Label {
		return Label{Source: "doc", Sentence: sentence, SHA256: "h" + string(rune('0'+sentence)), Kind: kind, Case: c}
	}
	first := []Label{l(0, "clause", "A"), l(1, "heading", ""), l(2, "clause", "")}
	second := []Label{l(2, "clause", "B"), l(0, "clause", "A")}
	var out strings.Builder
	if err := agreement(&out, first, second); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(none) -> B (1)") {
		t.Fatalf("the case disagreement is not reported:\n%s", out.String())
	}
	moved := l(1, "heading", "")
	moved.SHA256 = "other"
	if err := agreement(&out, first, []Label{moved}); err == nil {
		t.Fatal("a second-pass sentence whose text differs from the first pass's was accepted")
	}
}

// The committed second pass must keep the guidelines' vocabulary and be
// sentences of the first pass with the same text.
func TestSecondPassIsConsistent(t *testing.T) {
	if err := runAgreement(io.Discard, testLabels, "../../internal/analyze/testdata/cases/second-pass.jsonl", testData); err != nil {
		t.Fatal(err)
	}
}
