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
