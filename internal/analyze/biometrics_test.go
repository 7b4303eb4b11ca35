package analyze

import "testing"

// Biometrics: each practice found in several wordings (findsEach, weighty_test.go).
func TestBiometricsWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleBiometric, "We collect biometric data such as your face geometry when you verify your identity."},
		{titleBiometric, "The app uses facial recognition to scan your photos and suggest tags."},
		{titleBiometric, "We may record your voiceprint to recognise you when you call us."},
	})
}

// Biometrics: sentences that share a practice's words but state another case or
// none.
func TestBiometricsLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleBiometric, "We use device fingerprinting to recognise your browser and prevent fraud."},
	})
}
