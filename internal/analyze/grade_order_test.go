package analyze

import (
	"path/filepath"
	"testing"
)

// gradeOf analyzes a made-up document of testdata/grade.
func gradeOf(t *testing.T, name, docType string) Result {
	t.Helper()
	r := engine(t).Analyze(mustRead(t, filepath.Join("testdata", "grade", name)), Options{DocumentType: docType})
	checkGradeBasis(t, r)
	if !r.Graded() {
		t.Fatalf("%s: no grade", name)
	}
	return r
}

// The letter tells terms apart: a friendly terms grades at least two
// letters above a hostile one, and the hostile one with its worst clauses
// negated at least one letter above the original.
func TestGradeOrdersTerms(t *testing.T) {
	friendly := gradeOf(t, "friendly-terms.txt", "terms")
	hostile := gradeOf(t, "hostile-terms.txt", "terms")
	negated := gradeOf(t, "negated-terms.txt", "terms")
	if hostile.Grade[0]-friendly.Grade[0] < 2 {
		t.Errorf("friendly %s %d (%+v), hostile %s %d (%+v): want two letters apart", friendly.Grade, friendly.Score, friendly.Basis, hostile.Grade, hostile.Score, hostile.Basis)
	}
	if hostile.Grade[0]-negated.Grade[0] < 1 {
		t.Errorf("negated %s %d (%+v), hostile %s %d (%+v): want at least one letter apart\n%s", negated.Grade, negated.Score, negated.Basis, hostile.Grade, hostile.Score, hostile.Basis, negated.Why)
	}
	if hostile.Grade < "D" {
		t.Errorf("hostile terms grade %s %d (%+v), want D or E", hostile.Grade, hostile.Score, hostile.Basis)
	}
}

// A privacy policy that promises no sale, no tracking, deletion and notice
// scores above a page that promises nothing.
func TestGoodPrivacyAboveBlandPage(t *testing.T) {
	good := gradeOf(t, "good-privacy.txt", "privacy")
	bland := gradeOf(t, "bland-page.txt", "privacy")
	if good.Score <= bland.Score || good.Basis.Good == 0 {
		t.Errorf("good privacy %s %d (%+v), bland page %s %d (%+v): want the policy above", good.Grade, good.Score, good.Basis, bland.Grade, bland.Score, bland.Basis)
	}
}

// A text with no sentence read as a clause is not a legal document and
// gets no letter; a short real clause is still graded.
func TestNotALegalDocument(t *testing.T) {
	for _, text := range []string{"", "hi", "Home\nPricing\nAbout us\nContact", "Terms of Service"} {
		if r := engine(t).Analyze(text, Options{DocumentType: "terms"}); r.Graded() || r.Score != 0 {
			t.Errorf("%q: graded %s %d, want no grade", text, r.Grade, r.Score)
		}
	}
	for _, text := range []string{"We may terminate your account at any time.", "You agree to binding arbitration."} {
		if r := engine(t).Analyze(text, Options{DocumentType: "terms"}); !r.Graded() {
			t.Errorf("%q: no grade, want one", text)
		}
	}
}
