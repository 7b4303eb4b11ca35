package analyze

import "testing"

// Retention: each practice found in several wordings (findsEach, weighty_test.go).
func TestRetentionWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleKeepsDeleted, "We may retain copies of your content in our backup systems even after you delete it."},
		{titleKeepsDeleted, "Residual copies of deleted content may remain on our servers indefinitely."},
		{titleKeepsDeleted, "We keep your photos and messages after you close your account."},
	})
}

// Retention: sentences that share a practice's words but state another case or
// none.
func TestRetentionLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleKeepsDeleted, "Backup copies of deleted content are erased within 30 days."},
		{titleKeepsDeleted, "We keep some information after you delete your account where required by law to comply with our legal obligations."},
	})
}
