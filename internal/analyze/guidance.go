package analyze

// Guidance phrased for the document type. The catalog speaks to someone
// about to accept terms of service: read the terms before first use, keep
// backups, check the refund when your account is closed. A privacy policy
// is not accepted like a contract; it says what happens to your data, and
// its reader can decide what to give, which settings to use and whom to ask.
// So in a privacy policy each finding's guidance and the checklist's lines
// are chosen from the wording below where the catalog's would read as
// terms-of-service advice. Only the guidance text is chosen here: findings,
// severities, cases and the grade are the same whatever the type.

// privacyGuidance is a finding's guidance in a privacy policy, by category
// and severity, where the catalog's speaks of terms: its guidance, then its
// checklist line ("" when the category has none at that severity).
var privacyGuidance = map[string]map[string][2]string{
	"arbitration": {
		SeverityBlocker: {
			"Check whether disputes about your data must go to arbitration and whether there is a window to opt out; a complaint to a data-protection authority stays open to you either way.",
			"Check whether disputes about your data go to arbitration, and whether you can still complain to a data-protection authority."},
	},
	"limitation_of_liability": {
		SeverityBad: {
			"Check what the company accepts responsibility for if your data is misused or leaked, and give it no more personal data than the service needs.",
			"Check what the company accepts responsibility for if your data is leaked or misused."},
	},
	"unilateral_termination": {
		SeverityBad: {
			"Check what happens to your data when an account is closed: whether you can download it first, and when it is deleted.",
			"Find out what happens to your data when an account is closed."},
	},
	"unilateral_change": {
		SeverityBad: {
			"Check how changes to this policy are announced (email, in-app) and whether a new use of data already collected needs your consent.",
			"Find out how changes to the policy are announced and whether they need your consent."},
	},
	"content_removal": {
		SeverityBad: {
			"Keep copies of what you share, and check whether you are told when the company removes or deletes it.",
			"Keep copies of what you share with the service."},
	},
	"contract_by_using": {
		SeverityNeutral: {
			"Using the service counts as agreeing to this policy: read what is collected and shared before you sign up, and set the privacy settings from the start.",
			"Read what this policy allows before you start using the service, and set the privacy settings first."},
	},
	"choice_of_law": {
		SeverityNeutral: {
			"Note which law applies to your data, and whether the data-protection law where you live (such as the GDPR or a US state privacy law) still gives you its rights.",
			"Note which law governs your data."},
	},
	"jurisdiction": {
		SeverityBad: {
			"Check whether you may still complain to the data-protection authority or the courts where you live.",
			"Check where you could complain about how your data is handled."},
	},
}

// privacyRatingGuidance replaces ratingWording's guidance (a case finding
// whose category has no wording at its rating) in a privacy policy.
var privacyRatingGuidance = map[string]string{
	SeverityBlocker: "Read the quoted passage closely and decide whether to give this service the data it covers.",
	SeverityBad:     "Read the quoted passage and check whether it covers data you give this service, and whether a setting or an opt-out limits it.",
}

// The checklist's last line, by document type: none found, or some found.
var closingLines = map[string][2]string{
	"terms": {
		"No risky clauses were detected automatically; still skim the sections on liability, termination, disputes and data sharing.",
		"Save a copy of the version you accept (with its date), so you can compare it with later changes.",
	},
	"privacy": {
		"No risky practices were detected automatically; still skim the sections on what is collected, who receives it, how long it is kept and how to have it deleted.",
		"Save a copy of this version of the policy (with its date): it can change without your agreeing to anything, and a copy shows you what changed.",
	},
	"other": {
		"Nothing risky was detected automatically; this document was read as neither terms of service nor a privacy policy, so read it through yourself.",
		"Save a copy of this version (with its date), so you can compare it with later changes.",
	},
}

// phrased returns the findings with their guidance chosen for docType.
func phrased(findings []Finding, docType string) []Finding {
	if docType != "privacy" {
		return findings
	}
	for i := range findings {
		f := &findings[i]
		if g, ok := privacyGuidance[f.Category][f.Severity]; ok {
			f.Guidance = g[0]
		} else if _, ok := catalog[f.Category][f.Severity]; !ok {
			if g, ok := privacyRatingGuidance[f.Severity]; ok {
				f.Guidance = g
			}
		}
	}
	return findings
}

// checkLine is a finding's checklist line for docType.
func checkLine(cat, sev, docType string) string {
	if docType == "privacy" {
		if g, ok := privacyGuidance[cat][sev]; ok {
			return g[1]
		}
	}
	return catalog[cat][sev].check
}

// closingLine ends the checklist: found says whether it lists anything.
func closingLine(docType string, found bool) string {
	lines, ok := closingLines[docType]
	if !ok {
		lines = closingLines["other"]
	}
	if found {
		return lines[1]
	}
	return lines[0]
}
