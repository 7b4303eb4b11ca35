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

// Rule is the grade the engine's rule gives findings as the API returns
// them, one list per document: what an analysis's (one list) or a batch's
// (its items' lists) grade must be.
func Rule(docs ...[]app.Finding) (grade string, score int, basis app.GradeBasis) {
	in := make([][]analyze.Finding, len(docs))
	for i, fs := range docs {
		for _, f := range fs {
			in[i] = append(in[i], analyze.Finding(f))
		}
	}
	v := analyze.Judge(analyze.GradeCuts, in...)
	return v.Grade, v.Score, app.GradeBasis(v.Basis)
}
