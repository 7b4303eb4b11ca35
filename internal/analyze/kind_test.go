package analyze

import (
	"slices"
	"strings"
	"testing"
)

// What a sentence is, alone on its line: the texts about the document
// that are never findings, beside clauses that look like them and stay
// clauses.
func TestSentenceKind(t *testing.T) {
	cases := []struct {
		sentence string
		want     Kind
	}{
		{"Where do we store your data?", KindHeading},
		{"7. How long do we keep your information?", KindHeading},
		{"Please read these Terms carefully before using the app.", KindSummary},
		{"In this Privacy Notice, we describe how we handle your data.", KindSummary},
		{"We wrote this notice to explain how Acme uses cookies.", KindSummary},
		{"This section explains how we may suspend accounts.", KindSummary},
		{"Registration details are subject to our Privacy Policy.", KindCrossReference},
		{"To download a copy of these terms, click here.", KindCrossReference},
		{"Please visit our help centre to change your settings.", KindCrossReference},
		{"See section 9 for how we use your data for advertising.", KindCrossReference},
		{`As used herein, "Affiliate" means any entity controlling us.`, KindDefinition},
		{`The website and the app are referred to together as the "Platform".`, KindDefinition},
		{`The term "Member" refers to a registered user.`, KindDefinition},
		{"This includes, for example, the pages you visit.", KindExample},
		{"For instance, a post you share can be seen by your friends.", KindExample},
		{"Terms | Privacy | Cookies | Help", KindTOC},
		// look-alikes that are clauses
		{"Arbitration means that you give up your right to sue in court.", KindClause},
		{"We may share your data with advertisers, as described in our Cookie Policy.", KindClause},
		{"You may not be able to use the app without cookies.", KindClause},
		{"Your use of the Service means you accept these Terms.", KindClause},
		{"We may sell your data to anyone who pays for it.", KindClause},
	}
	for _, c := range cases {
		read := ReadSentences(c.sentence)
		if len(read) != 1 {
			t.Fatalf("%q: %d sentences, want 1", c.sentence, len(read))
		}
		if got := read[0].Kind; got != c.want {
			t.Errorf("kind of %q = %v, want %v", c.sentence, got, c.want)
		}
	}
}

// Only clauses are findings (issue 30 item 3): headings, tables of
// contents, link lines and sentences about the document give none, and a
// user instruction ("To delete your account at any time, visit
// Settings") states no practice of the service's, so it gives no risk;
// the choice it shows may still be a good case ("You can opt out of
// promotional communications") or a privacy category (user rights). The
// look-alikes are clauses that read like them and keep their risk.
func TestOnlyClauses(t *testing.T) {
	e := engine(t)
	notClauses := []struct {
		instruction bool
		text        string
	}{
		// instructions: no blocker or bad finding, but an opt-out's of the
		// privacy practice it opts out of
		{true, "To delete your account at any time, visit Settings > Account and tap Delete account, then confirm your choice."},
		{true, "To opt out of receiving promotional emails from us, click the unsubscribe link at the bottom of any email we send you."},
		{true, "If you want to close your account, go to the Account page, select Close account and follow the instructions on the screen."},
		{true, "To cancel your subscription, open the App Store, tap your name, then Subscriptions, and choose Cancel Subscription."},
		{true, "To stop receiving push notifications, turn them off in the notification settings of your device or in the app."},
		{true, "To change your cookie preferences at any time, click the Cookie Settings link in the footer of our website."},
		{true, "If you would like to request deletion of your personal data, please email privacy@example.com with the subject line Delete my data."},
		{true, "To disable location sharing, go to your phone's settings, find the app and switch Location to Never."},
		{true, "To turn off personalised ads, visit your Ad Settings page and switch off Ads based on your activity on other sites."},
		{true, "Visit Settings > Privacy > Ads to turn off personalised advertising based on your activity on other websites and apps."},
		{true, "Click Delete Account on your profile page to permanently delete your account and all of the content stored in it."},
		{true, "Go to the Privacy Settings page to choose who can see your posts and to control how we use your data for ads."},
		{true, "To exercise your right to opt out of the sale of your personal information, click Do Not Sell My Personal Information at the bottom of our homepage."},
		{true, "Please contact us at support@example.com if you want us to delete your account or any content you have posted."},
		// about the document, link lines, headings: no finding at all
		{false, "This section explains how we may change these terms and how we will let you know about the changes."},
		{false, "This section describes how we may suspend or terminate your account and what happens to your content afterwards."},
		{false, "This section of our Privacy Policy explains how we may update it and how we will tell you about the update."},
		{false, "Below we explain how we may change these terms and how you will be notified of any changes we make."},
		{false, "The sections below describe the circumstances in which we may share your personal information with third parties."},
		{false, "This part of the Terms sets out when we may remove content you post and how you can appeal our decision."},
		{false, "Here is how we may use the information we collect about you, and the choices you have about it."},
		{false, "The following section explains when we may share your personal information with third parties and why."},
		{false, "Read more about how we use cookies and how you can opt out of targeted advertising on other websites here."},
		{false, "For more information about how we share your data with advertisers and analytics partners, see our Cookie Policy."},
		{false, "Home | Terms of Service | Privacy Policy | Cookie Policy | Do Not Sell My Personal Information"},
		{false, "1. Your Account 2. Termination 3. Changes to the Terms 4. Limitation of Liability 5. Arbitration 6. Contact"},
		{false, "What happens if we change these Terms, suspend your access or terminate your account?"},
		{false, "12. TERMINATION; SUSPENSION; CHANGES TO THE SERVICE"},
		{false, "Section 14 – Arbitration Agreement and Class Action Waiver"},
		{false, "Limitation of Liability and Disclaimer of Warranties"},
	}
	if len(notClauses) < 20 {
		t.Fatalf("%d non-clauses, the table holds at least 20", len(notClauses))
	}
	for _, c := range notClauses {
		for _, typ := range []string{"terms", "privacy"} {
			for _, f := range e.Analyze(c.text, Options{DocumentType: typ}).Findings {
				risk := f.Severity == SeverityBad || f.Severity == SeverityBlocker
				if optOutPurposeRe.MatchString(strings.ToLower(c.text)) && slices.Contains(PrivacyCategories, f.Category) {
					continue // "to opt out of the sale ..." states the sale
				}
				if !c.instruction || risk {
					t.Errorf("%s: %s finding %q (%s) on a non-clause: %q", typ, f.Severity, f.Title, f.Category, c.text)
				}
			}
		}
	}
	// look-alikes: clauses that keep a risk of their category
	clauses := []struct {
		category, text string
	}{
		{"unilateral_termination", "We may delete your account at any time without notice."},
		{"unilateral_termination", "We may terminate your account at any time, for any reason, without notice to you."},
		{"unilateral_termination", "To protect our users, we may suspend or delete any account at any time without notice."},
		{"unilateral_termination", "Please note that we may delete your account and all of its content at any time without prior notice."},
		{"third_party_sharing", "To the extent permitted by law, we may share your personal information with advertisers for any purpose."},
		{"data_sale", "To improve our services, we may sell your personal data to third parties and keep it indefinitely."},
		{"arbitration", "To use the Service, you must agree to resolve all disputes by binding individual arbitration and waive any class action."},
		{"unilateral_change", "We may change these Terms at any time by posting the updated version on this page, without notifying you."},
		{"unilateral_change", "Visit this page often, as we may change these Terms at any time without notice to you."},
		{"retention", "To close your account, contact support, but we may keep your personal data indefinitely after you leave."},
	}
	for _, c := range clauses {
		var got []string
		ok := false
		for _, f := range e.Analyze(c.text, Options{DocumentType: "terms"}).Findings {
			got = append(got, f.Severity+" "+f.Category)
			ok = ok || f.Category == c.category && (f.Severity == SeverityBad || f.Severity == SeverityBlocker)
		}
		if !ok {
			t.Errorf("%q: findings [%s], want a risk of %s", c.text, strings.Join(got, ", "), c.category)
		}
	}
}

// A short sentence is a clause, not a heading; a heading alone is dropped.
func TestShortSentencesAreNotHeadings(t *testing.T) {
	for text, want := range map[string]string{
		"We sell your data.":         "data_sale",
		"We may terminate accounts.": "unilateral_termination",
	} {
		if r := engine(t).Analyze(text, Options{}); !categories(r)[want] {
			t.Errorf("engine(t).Analyze(%q) found %v, want %s", text, r.Findings, want)
		}
	}
	for _, s := range []string{"Cookies.", "5. Termination", "Governing Law.", "What we collect.", "How we share information", "I. Governing Law", "IT Security Measures", "You and Acme"} {
		if !isHeading([]rune(s)) {
			t.Errorf("isHeading(%q) = false", s)
		}
	}
}

// Sentences about the document (what a section explains, a definition,
// an example, a table of contents, a link line, a heading) give no finding.
func TestNonClausesAreNoFindings(t *testing.T) {
	e := engine(t)
	for _, s := range []string{
		"This section explains how we may change the service and terminate accounts.",
		"See section 4 for how we use your data for advertising.",
		`"Claim" means any dispute between you and us, including claims for damages.`,
		"For example, we may sell your data to advertisers if you post a photo.",
		"1. Introduction 2. Your Account 3. Termination 4. Arbitration 5. Changes",
		"Terms | Privacy | Cookies | Advertising | Help",
		"6. Limitation Of Liability And Binding Arbitration.",
		"b. Binding Individual Arbitration.",
		"*   Liability Cap Exclusions.",
		"CLASS ACTION WAIVER AND REPRESENTATIVE ACTION WAIVER.",
	} {
		if fs := e.Analyze(s, Options{DocumentType: "terms"}).Findings; len(fs) > 0 {
			t.Errorf("%q: findings %v, want none", s, fs)
		}
	}
}
