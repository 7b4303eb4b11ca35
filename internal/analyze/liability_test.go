package analyze

import "testing"

// Liability: each practice found in several wordings (findsEach, weighty_test.go).
func TestLiabilityWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleLiabilityFees, "In no event shall our aggregate liability exceed the amount you paid us in the twelve months before the claim."},
		{titleNoLiability, "To the maximum extent permitted by law, Acme shall not be liable for any indirect, incidental or consequential damages."},
		{titleNoLiability, "Neither Acme nor its suppliers will be liable for any lost profits or lost data arising from your use of the app."},
		{titleNoLiability, "NEITHER THE COMPANY NOR ITS AFFILIATES SHALL BE RESPONSIBLE FOR ANY DAMAGES WHATSOEVER."},
		{titleNoLiability, "Acme disclaims all liability to the fullest extent permitted by applicable law."},
		{titleNoLiability, "We accept no responsibility for any loss or harm you suffer while using the service."},
	})
}

// Liability: sentences that share a practice's words but state another case or
// none.
func TestLiabilityLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleNoLiability, "We may terminate this agreement without liability if your spending falls below the minimum."},
		{titleNoLiability, "We are not responsible for the conduct of other users on the forums."},
		{titleNoLiability, "Acme is not liable for delays caused by events beyond its reasonable control, such as floods."},
		{titleNoLiability, "Some jurisdictions do not allow the exclusion of liability, so this may not apply to you."},
		{titleNoLiability, "Acme LLC is a Delaware limited liability company."},
		{titleNoLiability, "We are not responsible for the accuracy of the content on this page."},
		{titleLiabilityFees, "You agree to indemnify and hold us harmless from any claims and liabilities, including the amounts paid to settle them."},
	})
}
