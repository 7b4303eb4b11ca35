package main

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

// admitPath is -admit's file: the good cases the grade counts (issue 21,
// item 4), with the cross-validated numbers that admit or refuse them.
var admitPath string

// Admission: a good case counts toward the grade only when its findings on
// the labelled set, cross-validated by service, are right at least
// analyze.MinGoodPrecision of the time over at least minGoodFound
// sentences (fewer findings say nothing about its precision).
const minGoodFound = 3

// writeAdmitted writes every good case found at least once in the
// cross-validated run (ss): found, right, precision and whether the grade
// admits it. internal/analyze embeds the file (good-cases.tsv).
func writeAdmitted(path string, ss []scored, rating map[string]string, folds int) error {
	cs := scoreCases(ss)
	var titles []string
	for t, n := range cs {
		if rating[t] == analyze.SeverityGood && n.tp+n.fp > 0 {
			titles = append(titles, t)
		}
	}
	slices.SortFunc(titles, func(a, b string) int {
		return cmp.Or(cs[b].tp+cs[b].fp-cs[a].tp-cs[a].fp, cmp.Compare(a, b))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# Good cases and their precision on internal/analyze/testdata/cases/labels.jsonl, cross-validated by service (%d folds).\n", folds)
	fmt.Fprintf(&b, "# Written by: go run ./cmd/eval-cases -data ../shared/data -admit internal/analyze/good-cases.tsv\n")
	fmt.Fprintf(&b, "# admitted: found on at least %d labelled sentences and right on at least %.0f%% of them; only admitted good cases count toward the grade.\n", minGoodFound, 100*analyze.MinGoodPrecision)
	b.WriteString("case\tfound\tright\tprecision\tadmitted\n")
	for _, t := range titles {
		n := cs[t]
		found := n.tp + n.fp
		ok := found >= minGoodFound && n.precision() >= analyze.MinGoodPrecision
		fmt.Fprintf(&b, "%s\t%d\t%d\t%.2f\t%v\n", t, found, n.tp, n.precision(), ok)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
