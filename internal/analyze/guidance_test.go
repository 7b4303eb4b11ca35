package analyze

import (
	"regexp"
	"strings"
	"testing"
)

// termsAdvice matches what only makes sense to someone accepting terms of
// service: the terms themselves, accepting them, refunds, appeals against a
// closed account, backups against a failing service, incorporated documents.
var termsAdvice = regexp.MustCompile(`(?i)\bterms\b|\baccept (it|them|the|these)\b|version you accept|\brefund|\bappeal|your own backups|incorporate`)

// Every finding the engine can word, in a privacy policy, gets guidance and
// a checklist line that do not read as terms-of-service advice; in terms of
// service the catalog's own wording stays.
func TestPrivacyGuidanceIsNotTermsAdvice(t *testing.T) {
	sevs := []string{SeverityBlocker, SeverityBad, SeverityNeutral, SeverityGood}
	for _, cat := range Categories {
		for _, sev := range sevs {
			_, _, g := wording(cat, sev, "")
			f := phrased([]Finding{{Category: cat, Severity: sev, Guidance: g}}, "privacy")[0]
			if termsAdvice.MatchString(f.Guidance) {
				t.Errorf("%s/%s in a privacy policy: guidance %q", cat, sev, f.Guidance)
			}
			if c := checkLine(cat, sev, "privacy"); termsAdvice.MatchString(c) {
				t.Errorf("%s/%s in a privacy policy: checklist %q", cat, sev, c)
			}
			if got := phrased([]Finding{{Category: cat, Severity: sev, Guidance: g}}, "terms")[0].Guidance; got != g {
				t.Errorf("%s/%s in terms: guidance %q, want the catalog's %q", cat, sev, got, g)
			}
			if got, want := checkLine(cat, sev, "terms"), catalog[cat][sev].check; got != want {
				t.Errorf("%s/%s in terms: checklist %q, want %q", cat, sev, got, want)
			}
		}
	}
	// An override stands for a catalog entry: a category or severity renamed
	// there must not leave its privacy wording behind unused.
	for cat, bySev := range privacyGuidance {
		for sev := range bySev {
			if _, ok := catalog[cat][sev]; !ok {
				t.Errorf("privacyGuidance %s/%s has no catalog entry", cat, sev)
			}
		}
	}
	for _, found := range []bool{false, true} {
		if l := closingLine("privacy", found); termsAdvice.MatchString(l) {
			t.Errorf("privacy closing line (found %v): %q", found, l)
		}
	}
}

// The same clauses analyzed as a privacy policy and as terms: the findings
// and the grade are the same, the guidance is each type's own.
func TestGuidanceByDocumentType(t *testing.T) {
	e := engine(t)
	const text = `Privacy Policy

By using the service you agree to this privacy policy and to our terms.

We may suspend or terminate your account at any time, for any reason, without notice.

To the maximum extent permitted by law, we are not liable for any indirect or consequential damages.

This policy is governed by the laws of the State of Delaware.

Any dispute arising from this policy will be resolved by binding arbitration.`
	privacy := e.Analyze(text, Options{DocumentType: "privacy"})
	terms := e.Analyze(text, Options{DocumentType: "terms"})
	if privacy.Grade != terms.Grade || len(privacy.Findings) != len(terms.Findings) || len(privacy.Findings) < 3 {
		t.Fatalf("privacy %s with %d findings, terms %s with %d", privacy.Grade, len(privacy.Findings), terms.Grade, len(terms.Findings))
	}
	differ := 0
	for i, f := range privacy.Findings {
		if f.Category != terms.Findings[i].Category || f.Quote != terms.Findings[i].Quote || f.Severity != terms.Findings[i].Severity {
			t.Errorf("finding %d differs beyond its guidance: %v / %v", i, f, terms.Findings[i])
		}
		if termsAdvice.MatchString(f.Guidance) {
			t.Errorf("privacy finding %s: guidance %q", f, f.Guidance)
		}
		if f.Guidance != terms.Findings[i].Guidance {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no finding's guidance is phrased for the privacy policy")
	}
	for _, g := range privacy.Guidance {
		if termsAdvice.MatchString(g) {
			t.Errorf("privacy checklist: %q", g)
		}
	}
	if last := terms.Guidance[len(terms.Guidance)-1]; !strings.Contains(last, "the version you accept") {
		t.Errorf("terms checklist ends %q", last)
	}
	if last := privacy.Guidance[len(privacy.Guidance)-1]; !strings.Contains(last, "this version of the policy") {
		t.Errorf("privacy checklist ends %q", last)
	}
}

// Every case the analyzer can find (the case model's and the rules') says
// why it matters in words of its own: never only its restated title and
// how ToS;DR's reviewers rate it (issue 30 item 9). caseWhy holds no
// title the analyzer cannot produce.
func TestEveryCaseExplainsWhy(t *testing.T) {
	e := engine(t)
	titles := map[string]bool{}
	for _, c := range e.cd.m.Cases {
		titles[c.Title] = true
		_, expl, _ := wording(caseCategory(c), c.Rating, c.Title)
		generic := caseExplanation(c.Title) + " " + ratingWording[c.Rating].explanation
		if expl == generic || strings.TrimSpace(strings.TrimPrefix(expl, caseExplanation(c.Title))) == "" {
			t.Errorf("%s case %q (%s): explanation only %q", c.Rating, c.Title, caseCategory(c), expl)
		}
	}
	for title := range caseWhy {
		if !titles[title] {
			t.Errorf("caseWhy explains %q, which no case model or rule produces", title)
		}
	}
	// the findings of a long terms: none with the rating's words alone
	r := e.Analyze(mustRead(t, "testdata/terms-streamly.txt"), Options{DocumentType: "terms"})
	for _, f := range r.Findings {
		if f.Case != "" && f.Explanation == caseExplanation(f.Case)+" "+ratingWording[f.Severity].explanation {
			t.Errorf("finding %q: explanation %q", f.Case, f.Explanation)
		}
	}
}
