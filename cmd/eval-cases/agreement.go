package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// runAgreement checks the second pass at path against the guidelines'
// vocabulary and prints its agreement with the labels at labels.
func runAgreement(w io.Writer, labels, path, data string) error {
	first, err := readLabels(labels)
	if err != nil {
		return err
	}
	second, _, err := readCheckedLabels(path, data)
	if err != nil {
		return err
	}
	return agreement(w, first, second)
}

// agreement compares a second, independent labelling pass (second-pass.jsonl:
// a sample of the labelled sentences, labelled blind to the first pass) with
// labels.jsonl and prints Cohen's kappa per field with the most frequent
// disagreements, so how far the labels can be trusted is a number.
func agreement(w io.Writer, first, second []Label) error {
	byKey := map[string]Label{}
	for _, l := range first {
		byKey[labelKey(l)] = l
	}
	var pairs [][2]Label
	for _, s := range second {
		f, ok := byKey[labelKey(s)]
		if !ok {
			return fmt.Errorf("second pass: %s sentence %d is not labelled in the first pass", s.Source, s.Sentence)
		}
		if f.SHA256 != s.SHA256 {
			return fmt.Errorf("second pass: %s sentence %d: text hash %s, the first pass has %s", s.Source, s.Sentence, s.SHA256, f.SHA256)
		}
		pairs = append(pairs, [2]Label{f, s})
	}
	clause := func(p [2]Label) bool { return p[0].Kind == "clause" && p[1].Kind == "clause" }
	all := func([2]Label) bool { return true }
	fields := []struct {
		name  string
		value func(Label) string
		in    func([2]Label) bool
	}{
		{"kind", func(l Label) string { return l.Kind }, all},
		{"actor", func(l Label) string { return l.Actor }, clause},
		{"modality", func(l Label) string { return l.Modality }, clause},
		{"negated", func(l Label) string { return strconv.FormatBool(l.Negated) }, clause},
		{"case", func(l Label) string { return cmp.Or(l.Case, "(none)") }, all},
		{"rating", func(l Label) string { return cmp.Or(l.Rating, "(none)") }, all},
		{"has a case", func(l Label) string { return strconv.FormatBool(l.Case != "") }, all},
	}
	fmt.Fprintf(w, "\n== agreement of the second pass with labels.jsonl: %d sentences\n\n", len(pairs))
	fmt.Fprintf(w, "%-12s %6s %9s %7s  %s\n", "field", "n", "observed", "kappa", "most frequent disagreements (first -> second)")
	for _, f := range fields {
		var a, b []string
		for _, p := range pairs {
			if f.in(p) {
				a, b = append(a, f.value(p[0])), append(b, f.value(p[1]))
			}
		}
		obs, k := kappa(a, b)
		fmt.Fprintf(w, "%-12s %6d %8.1f%% %7.2f  %s\n", f.name, len(a), 100*obs, k, topDisagreements(a, b, 3))
	}
	return nil
}

func labelKey(l Label) string { return l.Source + "\x00" + strconv.Itoa(l.Sentence) }

// kappa returns the observed agreement of two raters' labels of the same
// items and Cohen's kappa: (observed - expected) / (1 - expected), where
// expected is the agreement of raters who label at their own rates at
// random. With no chance disagreement possible (one label throughout) kappa
// is 1 when they agree.
func kappa(a, b []string) (observed, k float64) {
	if len(a) == 0 {
		return 0, 0
	}
	na, nb := map[string]int{}, map[string]int{}
	agree := 0
	for i := range a {
		na[a[i]]++
		nb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	n := float64(len(a))
	observed = float64(agree) / n
	var expected float64
	for v, c := range na {
		expected += float64(c) / n * float64(nb[v]) / n
	}
	if expected == 1 {
		return observed, 1
	}
	return observed, (observed - expected) / (1 - expected)
}

// topDisagreements names the n most frequent (first, second) pairs that
// differ, with their counts.
func topDisagreements(a, b []string, n int) string {
	count := map[[2]string]int{}
	for i := range a {
		if a[i] != b[i] {
			count[[2]string{a[i], b[i]}]++
		}
	}
	keys := make([][2]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]string) int {
		return cmp.Or(count[y]-count[x], cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
	})
	out := ""
	for i, k := range keys {
		if i == n {
			break
		}
		if out != "" {
			out += "; "
		}
		out += fmt.Sprintf("%s -> %s (%d)", short(k[0]), short(k[1]), count[k])
	}
	return out
}

// short cuts a case title to its first 40 characters.
func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
