package analyze

import (
	"slices"
	"strings"
	"testing"
)

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

// The service's right to delete or close is never the user's right over
// their data: "We may delete your account at any time" gives no "You can
// access, delete or control your data" beside its risk; the user's
// request makes it one.
func TestServiceRightIsNoUserRight(t *testing.T) {
	e := engine(t)
	for _, c := range []struct {
		good bool
		text string
	}{
		{false, "We may delete your account at any time without notice."},
		{false, "If you breach these terms, we may delete your account at any time without prior notice."},
		{false, "We may disable or delete your account and all of its content for any reason."},
		{true, "We may delete your personal data at your request, unless we must keep it by law."},
		{true, "You can access, correct or delete your personal data at any time from the settings page."},
	} {
		for _, typ := range []string{"terms", "privacy"} {
			var good []string
			for _, f := range e.Analyze(c.text, Options{DocumentType: typ}).Findings {
				if f.Severity == SeverityGood {
					good = append(good, f.Title)
				}
			}
			if (len(good) > 0) != c.good {
				t.Errorf("%s %q: good findings %q, want some: %v", typ, c.text, good, c.good)
			}
		}
	}
}

// A protection taken back by its "but" clause keeps the risk the clause
// states (examples/page.html: "..., but we may retain backups and log data
// indefinitely"), and the clause counts as that risk; a negated "but"
// clause adds none.
func TestButTakesBackAProtection(t *testing.T) {
	e := engine(t)
	for _, c := range []struct {
		risk bool
		text string
	}{
		{true, "When you delete your account, we delete your notes within 30 days, but we may retain backups and log data indefinitely."},
		{true, "We delete your notes within 30 days after you close your account, but we keep the messages you sent forever."},
		{false, "We delete your notes within 30 days after you close your account, but we never keep copies of your messages."},
		{false, "We delete your personal data within 30 days after you close your account, but you can ask us to delete it sooner."},
	} {
		r := e.Analyze(c.text, Options{DocumentType: "privacy"})
		risk := false
		for _, f := range r.Findings {
			risk = risk || f.Severity == SeverityBad || f.Severity == SeverityBlocker
		}
		if risk != c.risk || c.risk && r.Basis.Good > 0 {
			t.Errorf("%q: risk %v (basis %+v), want %v", c.text, risk, r.Basis, c.risk)
		}
	}
}
