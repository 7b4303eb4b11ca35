package analyze

import "testing"

// Sharing: each practice found in several wordings (findsEach, weighty_test.go).
func TestSharingWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleGivenThird, "We may share your personal information with advertisers and marketing partners."},
		{titleGivenThird, "Your details may be shared with our business partners so they can send you offers."},
		{titleGivenThird, "We disclose your contact information to data brokers."},
		{titleGivenThird, "We provide your personal data to advertising partners for their own marketing."},
		{titleGivenThird, "Information about your purchases may be transferred to affiliates and other companies in our group."},
		{titleSellUnlessOpt, "You have the right to opt out of the sale or sharing of your personal information."},
		{titleSellUnlessOpt, "Some of our disclosures to ad partners may be considered a sale under California law."},
		{titleSellUnlessOpt, "We may sell your data to partners unless you opt out in your privacy settings."},
		{titleSellUnlessOpt, "You can opt out of the sale of your personal data in your privacy settings."},
	})
}

// Sharing: sentences that share a practice's words but state another case or
// none.
func TestSharingLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleGivenThird, "You may share information with third parties through the service."},
		{titleGivenThird, "We share aggregated, de-identified statistics with our advertising partners."},
		{titleGivenThird, "We may share your information with service providers who help us operate the service."},
		{titleGivenThird, "Our partners provide us with information about you from third-party sources."},
		{titleGivenThird, "We are working to reduce sharing data with third parties."},
	})
}
