package analyze

import "testing"

// Termination: each practice found in several wordings (findsEach, weighty_test.go).
func TestTerminationWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleTermination, "We may suspend or terminate your account at any time, without notice, for any reason."},
		{titleTermination, "Your account may be deleted at our sole discretion without prior notice."},
		{titleTermination, "Acme reserves the right to deny you access to the game at any time for any reason."},
		{titleTermination, "We can ban users from the platform for any or no reason, without warning."},
		{titleTermination, "Your membership may be closed if you break these rules, or for any other or no reason."},
		{titleTermination, "The company may refuse anyone using or accessing the site at any time, for any reason whatsoever."},
	})
}

// Termination: sentences that share a practice's words but state another case or
// none.
func TestTerminationLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleTermination, "We may terminate your access to any of the user contributions at any time."},
	})
}
