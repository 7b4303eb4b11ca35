package apptest

import (
	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
)

// GradedTerms holds bad practices ToS;DR has cases for (termination and
// change without notice, binding arbitration); GradedPrivacy good ones (no
// sale, access and deletion).
const (
	GradedTerms = "We may terminate your account at any time, for any reason, without notice.\n\n" +
		"We reserve the right to modify these Terms at any time and without notice.\n\n" +
		"Any dispute shall be resolved by final and binding arbitration, and you waive any right to participate in a class action."
	GradedPrivacy = "We do not sell your personal information.\n\n" +
		"You have the right to access, correct and delete your personal data at any time."
)

// Rule is the grade ToS;DR's rule gives cases as the API returns them: what
// an analysis's or a batch's grade must be.
func Rule(cases []app.Case) (grade string, score int, basis app.GradeBasis) {
	in := make([]analyze.Case, len(cases))
	for i, c := range cases {
		in[i] = analyze.Case(c)
	}
	grade, score, b := analyze.Grade(in)
	return grade, score, app.GradeBasis(b)
}
