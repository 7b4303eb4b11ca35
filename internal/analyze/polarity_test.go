package analyze

import (
	"strings"
	"testing"
)

// polarityTable holds real-length clauses (25 words or more) in the
// wording of real terms and policies. A promise not to do something
// (whatever its length or where the negation sits) never yields the risk
// it denies; a risk stays a risk, however much negation its wording
// carries ("we do not refund", "nothing limits our right to"), and never
// yields a protection.
var polarityTable = []struct {
	risk     bool
	sentence string
}{
	// promises: no blocker or bad finding
	{false, "No part of these terms limits or excludes our liability for death or personal injury caused by our negligence, for fraud, or for any other liability that cannot be limited or excluded under the law of your country."},
	{false, "Nothing in this agreement requires you to submit any dispute with us to binding arbitration, and you remain free to bring a claim before the ordinary courts at any time and in any way the law allows."},
	{false, "These terms do not ask you to give up your right to join a class or representative action, and we will not seek to enforce any class action waiver against consumers in any court."},
	{false, "We will never require you to waive the moral rights you hold in the photographs, videos and other works you upload, and you keep the right to be named as the author of your content."},
	{false, "We will not suspend, disable or terminate your account without first giving you at least thirty days' written notice explaining the reason, unless we are required to act sooner by law or a court order."},
	{false, "We will not change these terms without notifying you by email at least thirty days before the changes take effect, and if you do not agree with them you may close your account before then."},
	{false, "We do not sell, rent or trade your personal information to third parties, data brokers or advertisers, and we have not done so in the twelve months before this policy was last updated."},
	{false, "We do not share your personal data with advertising networks or other third parties for their own marketing purposes, and no partner of ours may use it to show you targeted ads."},
	{false, "We do not use cookies, web beacons or similar technologies to track your activity across other websites and apps, and we do not allow third-party advertising companies to do so on our service."},
	{false, "We do not keep your personal data for longer than is necessary for the purposes described in this policy, and we delete it within thirty days after you close your account or ask us to."},
	{false, "We do not collect biometric identifiers such as face geometry, fingerprints or voiceprints from the photographs and recordings you upload, and we never use facial recognition on your content."},
	{false, "We will never read the contents of your private messages, scan your files for advertising purposes, or give any third party access to them, except where a court order requires us to."},
	{false, "We will not remove or restrict access to the content you post without telling you which rule it breaks and giving you a chance to appeal the decision through our support team."},
	{false, "Nothing in these terms grants us any licence to sell, sublicense or commercially exploit the content you upload, and you keep all ownership and intellectual property rights in everything you create."},
	{false, "This service does not claim any ownership of your content and does not take a licence to use it for any purpose other than storing it and showing it to the people you choose to share it with."},
	{false, "Your subscription will not be renewed automatically at the end of its term, and we will never charge your payment card again without first asking for your express consent to the new charge."},
	{false, "We will never increase the price of your subscription during a billing period you have already paid for, and we will not apply a price change without giving you at least one month's notice."},
	{false, "We never combine the information we collect from you with data obtained from data brokers or other third-party sources to build a profile of your interests or to target advertising at you."},
	{false, "We do not retain copies of your photos, messages or files on our servers or in our backups once you delete them, other than for the short period of up to thirty days needed to complete the deletion."},
	{false, "None of the ads you see on our service are based on your browsing history, your location or any profile of you as a person; they are chosen only from the topic of the page you are reading."},
	{false, "We will not terminate this agreement or close your account merely because you criticise us, leave a negative review, or take part in legal proceedings against the company in good faith."},
	{false, "We will never require you to indemnify us, defend us or hold us harmless against claims brought by third parties that arise from our own negligence, our products or our breach of these terms."},
	{false, "We do not track your precise location in the background when the app is closed, and we do not share the location data we collect while you use the app with advertisers or analytics partners."},
	{false, "At no time will the company use the content of your emails, chats or documents to train machine learning models or to serve you advertising, and no employee may read it without your permission."},
	{false, "We will not keep your payment card details after a transaction is complete, and we never store your full card number, security code or bank account credentials on our own systems."},
	{false, "Your personal data will not be sold or shared with third parties for cross-context behavioural advertising, and we will not use it to create profiles about you for marketing purposes of any kind."},
	{false, "We will never restrict your right to bring a claim against us in the courts of the country where you live, and nothing in these terms waives your right to a trial by jury."},
	{false, "These terms do not limit any rights you have as a consumer under the mandatory law of your country, and we will not rely on any clause that would exclude our liability for defective products."},
	{false, "We shall not use your name, image or likeness in advertisements or sponsored content shown to other users without first asking for your permission, which you may refuse or withdraw at any time."},
	{false, "The company will not disclose, transfer or otherwise make available your personal information to any advertiser, data broker or other third party for that party's own direct marketing purposes."},
	{false, "Under no circumstances will we delete your account or the content stored in it without prior notice, and we will always give you the opportunity to download a copy of your data first."},
	{false, "We are not permitted to and will not modify or discontinue the paid features of your plan during the term you have paid for, and any change to these terms will apply only from your next renewal."},
	// risks: a blocker or bad finding, and no good one
	{true, "We do not refund any fees or charges already paid, including where you cancel your subscription part way through a billing period or where we suspend or terminate your account at any time for any reason."},
	{true, "Nothing in these terms limits our right to suspend or terminate your account at any time, for any reason or for no reason, with or without notice to you and without any liability to you."},
	{true, "In no event shall the company, its affiliates or its licensors be liable for any indirect, incidental, special, consequential or punitive damages, including loss of profits, data or goodwill, arising out of your use of the service."},
	{true, "Our total liability to you for all claims arising out of or relating to these terms or the service shall not exceed the amount you paid us in the twelve months before the claim arose."},
	{true, "You agree that any dispute between you and the company will be resolved by final and binding individual arbitration, and you waive your right to a trial by jury or to participate in a class action."},
	{true, "You will not bring or participate in any class, collective or representative action against the company, and any claim must be brought in your individual capacity and not as a plaintiff or class member."},
	{true, "To the extent permitted by applicable law, you waive and agree not to assert any moral rights or similar rights of attribution and integrity that you may have in any content you submit to the service."},
	{true, "You irrevocably consent to the company and its licensees doing any act in relation to your content that would otherwise infringe your moral rights, including editing, adapting or using it without crediting you."},
	{true, "By posting content you grant us a worldwide, non-exclusive, royalty-free, transferable and sublicensable licence to use, copy, modify, publish, distribute and create derivative works from that content in any media."},
	{true, "You give the company permission to use, reproduce and display anything you upload, in any form and on any platform, for as long as the company wishes, and you will not receive any payment for such use."},
	{true, "The licence you grant us survives the termination of your account, and we may continue to use, display and distribute content you have shared even after you delete it or close your account."},
	{true, "We may retain copies of your content and personal information in our backup systems and archives after you delete them, and we are not required to remove such copies from our servers."},
	{true, "We retain your personal data indefinitely, including after you close your account, so that we can improve our services, and we do not set any fixed period after which it is deleted."},
	{true, "We may sell your personal information, including your contact details and purchase history, to third parties such as data brokers and marketing companies, and we may keep it forever."},
	{true, "We share information about your activity on our service, including the pages you visit and the items you buy, with our advertising partners so that they can show you personalised ads on other websites."},
	{true, "We and our partners use cookies, pixels and device identifiers to track your activity across other websites and apps over time, and we use this information to build a profile of your interests for advertising."},
	{true, "We may collect biometric data, such as scans of your face geometry and your voiceprint, from the photos, videos and voice recordings you upload, and use it to identify you and to improve our products."},
	{true, "We may change, modify or replace any part of these terms at any time at our sole discretion, and your continued use of the service after changes are posted constitutes your acceptance of the new terms."},
	{true, "We reserve the right to remove or refuse to publish any content you post, for any reason or no reason, without notice to you and without any liability to you for doing so."},
	{true, "We do not respond to Do Not Track signals sent by your browser, and third-party advertising networks may continue to collect information about your online activities across different websites over time."},
	{true, "The company is not responsible for any loss of data, damage to your device or interruption of the service, and you use the service entirely at your own risk without any warranty of any kind."},
	{true, "We are under no obligation to notify you before suspending your account, and we do not have to give you any reason for suspending or terminating your access to the service at any time."},
	{true, "We cannot guarantee that your personal information will be kept secure, and we will not be liable for any unauthorised access to or use of the information we hold about you by hackers or other third parties."},
	{true, "Even after you delete your account, we will not delete the messages you have sent to other users, and copies of your photos may remain on our servers and in our backups for an unlimited period."},
	{true, "The company keeps the information you give it for as long as it likes, including after you have deleted your profile, and may use it for any of the purposes listed in this policy."},
	{true, "We may disclose your personal information to our affiliates, advertising partners and other third parties, who may use it for their own marketing purposes, including to send you offers about their products."},
	{true, "Nothing in this policy restricts our ability to share your personal data with our corporate affiliates and with advertisers for any purpose, without asking for your consent or telling you first."},
	{true, "Neither the company nor its suppliers shall have any liability to you for any damages whatsoever arising from the use of or inability to use the service, even if advised of the possibility of such damages."},
	{true, "We will not be liable to you for any modification, suspension or discontinuance of the service or any part of it, and we may discontinue the service at any time without notice to you."},
	{true, "We retain your personal data indefinitely, even after you delete your account, and we may use it to improve our services, for research and for any other purpose described in this policy."},
}

func TestPolarity(t *testing.T) {
	e := engine(t)
	promises, risks := 0, 0
	for _, c := range polarityTable {
		if n := len(strings.Fields(c.sentence)); n < 25 {
			t.Errorf("%d words, the table is of real-length sentences (25 or more): %q", n, c.sentence)
		}
		typ := "terms"
		if strings.Contains(c.sentence, "personal") || strings.Contains(c.sentence, "data") {
			typ = "privacy"
		}
		r := e.Analyze(c.sentence, Options{DocumentType: typ})
		var bad, good []string
		for _, f := range r.Findings {
			switch f.Severity {
			case SeverityBlocker, SeverityBad:
				bad = append(bad, f.Category+": "+f.Title)
			case SeverityGood:
				good = append(good, f.Category+": "+f.Title)
			}
		}
		switch {
		case c.risk && len(bad) == 0:
			t.Errorf("a risk with no bad finding: %q", c.sentence)
		case c.risk && len(good) > 0:
			t.Errorf("a risk read as a protection %q: %q", good, c.sentence)
		case !c.risk && len(bad) > 0:
			t.Errorf("a promise read as the risk it denies %q: %q", bad, c.sentence)
		}
		if c.risk {
			risks++
		} else {
			promises++
		}
	}
	if promises < 30 || risks < 30 {
		t.Errorf("%d promises and %d risks: the table holds at least 30 of each", promises, risks)
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
