package analyze

import (
	_ "embed"
	"strings"
)

// MinGoodPrecision is how often a good case's findings must be right on the
// labelled set (per case, cross-validated by service) for the case to count
// toward the grade (issue 21: good cases only when sure).
const MinGoodPrecision = 0.9

// goodCasesTSV is written by cmd/eval-cases -admit: every good case found on
// the labelled sentences, with its cross-validated precision and whether it
// is admitted.
//
//go:embed good-cases.tsv
var goodCasesTSV string

// admittedGood holds the titles of the good cases the grade counts.
var admittedGood = parseAdmitted(goodCasesTSV)

func parseAdmitted(tsv string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(tsv, "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 5 && f[4] == "true" {
			out[f[0]] = true
		}
	}
	return out
}

// AdmittedGood reports whether a good case counts toward the grade.
func AdmittedGood(title string) bool { return admittedGood[title] }
