package analyze

import "testing"

// Content: each practice found in several wordings (findsEach, weighty_test.go).
func TestContentWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleBroadLicence, "You grant us a worldwide, royalty-free, sublicensable, transferable licence to use, modify and create derivative works of your content."},
		{titleBroadLicence, "By posting User Content you hereby grant Acme a perpetual, irrevocable licence to reproduce and distribute such content in any media."},
		{titleLicenceAfter, "The licence you grant us in your content survives the termination of your account and continues after you delete the content."},
		{titleLicenceThird, "We may sublicense the rights you grant us in your photos to our affiliates and business partners."},
		{titleLicenceThird, "Acme may assign or sub-license this licence to third parties without notifying you."},
		{titleLicenceThird, "The licence above may be transferred to our successors and to other companies in our group."},
		{titleLicenceThird, "We can sublicense that license to any third party who helps us distribute your uploads."},
		{titleMoralRights, "You agree not to assert any moral rights you may have in your submissions."},
	})
}

// Content: sentences that share a practice's words but state another case or
// none.
func TestContentLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleBroadLicence, "We grant you a limited licence to use the app; apart from this licence you have no other rights to modify or exploit our content."},
	})
}
