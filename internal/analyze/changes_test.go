package analyze

import "testing"

// Changes: each practice found in several wordings (findsEach, weighty_test.go).
func TestChangesWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleChangeNoNotice, "We reserve the right to modify these Terms at any time, and changes are effective upon posting."},
		{titleChangeNoNotice, "We may update this privacy policy from time to time by posting the new version on this page."},
	})
}

// Changes: sentences that share a practice's words but state another case or
// none.
func TestChangesLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleChangeNoNotice, "We will update the 'last updated' date at the top of these Terms when we change them."},
		{titleChangeNoNotice, "You can view the change history of this policy at any time on our archive page."},
		{titleChangeNoNotice, "We may change the matchmaking criteria from time to time without notice."},
	})
}

// A change clause whose paragraph promises notice of the changes is not
// "changed without notice" (the bundled examples/page.html, issue 30 item
// 9): it is ToS;DR's neutral case of a change with notice. A clause that
// says "without notice" itself, or a paragraph that refuses notice, keeps
// the bad case.
func TestChangeWithNoticeIsNotWithoutNotice(t *testing.T) {
	e := engine(t)
	for _, c := range []struct {
		bad      bool
		doc, txt string
	}{
		{false, "privacy", "We may update this policy from time to time. If we make material changes, we will notify you by email at least 30 days before they take effect."},
		{false, "terms", "We may change these terms at any time. We will tell you about any change by email and in the app at least 30 days before it takes effect."},
		{false, "terms", "We will always give you at least 30 days' notice by email of any changes to these terms. We may revise these terms from time to time."},
		{true, "terms", "We may change these terms at any time without notice. We will notify you by email at least 30 days before any increase in your subscription fees."},
		{true, "terms", "We may change these terms at any time. We are not obliged to notify you of any change, so please check this page regularly."},
		{true, "privacy", "We may update this policy from time to time."},
		// notice by the date or the change log, only where the law requires
		// it, or that the service "may" give, is no promise
		{true, "terms", "We may modify these Terms at any time. If we make material changes, we will provide reasonable notice, such as updating the date at the top of these Terms or a notice on the site."},
		{true, "privacy", "We may change this policy from time to time. If we make changes, we will notify you by revising the change log below, and in some cases we may send you an email."},
		{true, "terms", "We may modify these Terms at any time. If a revision is material, we will notify you as required by law."},
	} {
		r := e.Analyze(c.txt, Options{DocumentType: c.doc})
		got := false
		for _, f := range r.Findings {
			if f.Case == titleChangeNoNotice {
				got = true
			}
		}
		if got != c.bad {
			t.Errorf("%q: changed without notice %v, want %v", c.txt, got, c.bad)
		}
	}
}

func TestPrivacyPolicyChangeNotClauseChange(t *testing.T) {
	text := "Norditech may change its privacy policy if necessary."
	r := engine(t).Analyze(text, Options{DocumentType: "privacy"})
	cats := categories(r)
	if !cats["policy_change_notice"] || cats["unilateral_change"] {
		t.Errorf("categories = %v, want policy_change_notice only", cats)
	}
}
