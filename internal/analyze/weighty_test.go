package analyze

import (
	"slices"
	"testing"
)

// Each weighty practice is found in several wordings: the service under
// any name, active or passive, shouted or in a list of reasons.
func TestWeightyWordings(t *testing.T) {
	e := engine(t)
	cases := []struct{ title, text string }{
		{titleBroadLicence, "You grant us a worldwide, royalty-free, sublicensable, transferable licence to use, modify and create derivative works of your content."},
		{titleBroadLicence, "By posting User Content you hereby grant Acme a perpetual, irrevocable licence to reproduce and distribute such content in any media."},
		{titleLicenceAfter, "The licence you grant us in your content survives the termination of your account and continues after you delete the content."},
		{titleLicenceThird, "We may sublicense the rights you grant us in your photos to our affiliates and business partners."},
		{titleLicenceThird, "Acme may assign or sub-license this licence to third parties without notifying you."},
		{titleLicenceThird, "The licence above may be transferred to our successors and to other companies in our group."},
		{titleLicenceThird, "We can sublicense that license to any third party who helps us distribute your uploads."},
		{titleMoralRights, "You agree not to assert any moral rights you may have in your submissions."},

		{titleClassAction, "You may bring claims against us only in your individual capacity and not as a plaintiff or class member in any purported class or representative proceeding."},
		{titleClassAction, "YOU WAIVE ANY RIGHT TO PARTICIPATE IN A CLASS ACTION LAWSUIT."},
		{titleClassAction, "Each of us may bring claims against the other solely on an individual basis."},
		{titleClassAction, "Any proceeding to resolve a dispute will be conducted only in your individual capacity."},
		{titleClassAction, "Claims of different users may not be consolidated or joined in one proceeding."},
		{titleClassAction, "No arbitration or lawsuit may proceed as a mass action or on behalf of a group of users."},

		{titleArbitration, "Any dispute shall be finally settled by binding arbitration administered by the AAA."},
		{titleArbitration, "You and Acme agree to resolve all disputes through individual arbitration."},
		{titleArbitration, "Every claim will be finally resolved under the arbitration rules of the London Court of International Arbitration."},
		{titleArbitration, "All controversies shall be settled under the Commercial Rules of the American Arbitration Association by a sole arbitrator."},
		{titleArbitration, "By accepting these Terms you waive your right to go to court and to a trial by jury."},
		{titleArbitration, "Both parties waive the right to have any dispute heard in court before a judge or jury."},

		{titleLiabilityFees, "In no event shall our aggregate liability exceed the amount you paid us in the twelve months before the claim."},
		{titleNoLiability, "To the maximum extent permitted by law, Acme shall not be liable for any indirect, incidental or consequential damages."},
		{titleNoLiability, "Neither Acme nor its suppliers will be liable for any lost profits or lost data arising from your use of the app."},
		{titleNoLiability, "NEITHER THE COMPANY NOR ITS AFFILIATES SHALL BE RESPONSIBLE FOR ANY DAMAGES WHATSOEVER."},
		{titleNoLiability, "Acme disclaims all liability to the fullest extent permitted by applicable law."},
		{titleNoLiability, "We accept no responsibility for any loss or harm you suffer while using the service."},

		{titleTermination, "We may suspend or terminate your account at any time, without notice, for any reason."},
		{titleTermination, "Your account may be deleted at our sole discretion without prior notice."},
		{titleTermination, "Acme reserves the right to deny you access to the game at any time for any reason."},
		{titleTermination, "We can ban users from the platform for any or no reason, without warning."},
		{titleTermination, "Your membership may be closed if you break these rules, or for any other or no reason."},
		{titleTermination, "The company may refuse anyone using or accessing the site at any time, for any reason whatsoever."},

		{titleChangeNoNotice, "We reserve the right to modify these Terms at any time, and changes are effective upon posting."},
		{titleChangeNoNotice, "We may update this privacy policy from time to time by posting the new version on this page."},

		{titleTargetedAds, "Our advertising partners use cookies to show you personalised ads based on your browsing activity across other websites."},
		{titleTargetedAds, "We let advertising networks collect your device identifiers through our apps."},
		{titleTargetedAds, "We allow third-party marketing companies to place cookies on our site to target you with ads elsewhere."},
		{titleTargetedAds, "We engage in interest-based advertising (IBA) with our partners across the websites you visit."},
		{titleTargetedAds, "Ad networks we work with use your activity on our service to target advertising to you on other apps."},
		{titleAds, "We use the information we collect about you to show you tailored advertisements within the app."},
		{titleAds, "Your purchase history is used to personalise the ads you see in our store."},
		{titleAds, "We analyse your interests and preferences to show you more relevant advertising."},
		{titleAds, "To deliver advertising that may be relevant to your interests."},
		{titleAds, "Acme uses your profile data for advertising purposes."},

		{titleGivenThird, "We may share your personal information with advertisers and marketing partners."},
		{titleGivenThird, "Your details may be shared with our business partners so they can send you offers."},
		{titleGivenThird, "We disclose your contact information to data brokers."},
		{titleGivenThird, "We provide your personal data to advertising partners for their own marketing."},
		{titleGivenThird, "Information about your purchases may be transferred to affiliates and other companies in our group."},
		{titleSellUnlessOpt, "You have the right to opt out of the sale or sharing of your personal information."},
		{titleSellUnlessOpt, "Some of our disclosures to ad partners may be considered a sale under California law."},
		{titleSellUnlessOpt, "We may sell your data to partners unless you opt out in your privacy settings."},
		{titleSellUnlessOpt, "You can opt out of the sale of your personal data in your privacy settings."},
	}
	for _, c := range cases {
		res := e.Analyze(c.text, Options{DocumentType: "terms"})
		if !slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Case == c.title }) {
			t.Errorf("%q: no finding of %q (findings %v)", c.text, c.title, res.Findings)
		}
	}
}

// Sentences that share a weighty practice's words but state another
// case or none: the user sharing, the law's exceptions, the procedure
// around an arbitration, a liability excluded only for others' conduct,
// the date of the terms rather than their change.
func TestWeightyLookAlikes(t *testing.T) {
	e := engine(t)
	cases := []struct{ title, text string }{
		{titleBroadLicence, "We grant you a limited licence to use the app; apart from this licence you have no other rights to modify or exploit our content."},
		{titleClassAction, "If this class action waiver is found unenforceable, the rest of this section remains in force."},
		{titleClassAction, "The arbitrator may award relief on an individual basis, as a court could."},
		{titleClassAction, "Mass arbitrations are administered under the provider's mass arbitration rules."},
		{titleArbitration, "The arbitrator shall decide the scope, validity and enforceability of this arbitration agreement."},
		{titleArbitration, "You and we will first try to resolve any dispute informally for 60 days before starting an arbitration."},
		{titleArbitration, "If the dispute is resolved through arbitration, the hearing will take place where you live."},
		{titleArbitration, "Residents of the EU may invoke binding arbitration for complaints about our certification."},
		{titleNoLiability, "We may terminate this agreement without liability if your spending falls below the minimum."},
		{titleNoLiability, "We are not responsible for the conduct of other users on the forums."},
		{titleNoLiability, "Acme is not liable for delays caused by events beyond its reasonable control, such as floods."},
		{titleNoLiability, "Some jurisdictions do not allow the exclusion of liability, so this may not apply to you."},
		{titleNoLiability, "Acme LLC is a Delaware limited liability company."},
		{titleNoLiability, "We are not responsible for the accuracy of the content on this page."},
		{titleLiabilityFees, "You agree to indemnify and hold us harmless from any claims and liabilities, including the amounts paid to settle them."},
		{titleTermination, "We may terminate your access to any of the user contributions at any time."},
		{titleChangeNoNotice, "We will update the 'last updated' date at the top of these Terms when we change them."},
		{titleChangeNoNotice, "You can view the change history of this policy at any time on our archive page."},
		{titleChangeNoNotice, "We may change the matchmaking criteria from time to time without notice."},
		{titleGivenThird, "You may share information with third parties through the service."},
		{titleGivenThird, "We share aggregated, de-identified statistics with our advertising partners."},
		{titleGivenThird, "We may share your information with service providers who help us operate the service."},
		{titleGivenThird, "Our partners provide us with information about you from third-party sources."},
		{titleGivenThird, "We are working to reduce sharing data with third parties."},
		{titleAds, "Targeted advertising is more effective for advertisers than random ads."},
		{titleAds, "We do not target residents of the EU with ads based on their interests."},
		{titleAds, "You have choices about the personalised ads you see, for example in your ad settings."},
	}
	for _, c := range cases {
		res := e.Analyze(c.text, Options{DocumentType: "terms"})
		if slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Case == c.title }) {
			t.Errorf("%q: finding of %q, want none (findings %v)", c.text, c.title, res.Findings)
		}
	}
}
