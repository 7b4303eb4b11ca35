package analyze

// Biometrics: the user's biometric data collected or used. The privacy
// category data_collection, read per paragraph, has its patterns in
// privacy.go (privacyCats).

// The case's title, as cases.tsv spells it.
const titleBiometric = "Your biometric data is collected"

// The rule case, tried in weightyRules' order (weighty.go).
var ruleBiometric = ruleCase{info: weightyCase(titleBiometric, SeverityBad, "data_collection"), needs: []string{"biometric", "face", "facial", "voiceprint", "voice", "iris", "retina", "palm", "fingerprint"}, match: collectsBiometrics, conf: 0.8, keepOthers: true}

var (
	// biometric data by name or by kind; a device's or browser's
	// "fingerprint" is tracking, not biometrics
	biometricRe  = mustPattern(`\b(biometric\w*|face ?prints?|facial (recognition|geometry|features|scans?|templates?|data|images? analysis)|face (geometry|scans?|templates?|recognition)|voice ?prints?|iris (scans?|patterns?)|retina\w* scans?|palm ?prints?|fingerprints?)\b`)
	deviceFPRe   = mustPattern(`\b(device|browser|digital|canvas|audio) fingerprint`)
	bioCollectRe = mustPattern(`\b(collect\w*|captur\w*|obtain\w*|record\w*|process\w*|use|uses|used|using|scan\w*|stor\w*|extract\w*|creat\w*|generat\w*|analy[sz]\w*|derive\w*|receiv\w*|gather\w*|retain\w*|keep)\b`)
)

// collectsBiometrics: the service collects or uses biometric data.
func collectsBiometrics(w string) bool {
	return biometricRe.MatchString(w) && !deviceFPRe.MatchString(w) && bioCollectRe.MatchString(w)
}
