package analyze

import (
	"strings"
)

// The user's content: a waiver of the moral rights in it and the licences
// to it (broader than needed, kept after the account is closed, passed on
// to third parties).

// Titles of the cases, as cases.tsv spells them.
const (
	titleMoralRights  = "You waive your moral rights"
	titleBroadLicence = "The copyright license maintained by the service over user data and/or content is broader than necessary."
	titleLicenceAfter = "This service keeps a license on user-generated content even after users close their accounts."
	titleLicenceThird = "This service can license user content to third parties"
)

// The rule cases, tried in weightyRules' order (weighty.go).
var (
	ruleMoralRights  = ruleCase{info: weightyCase(titleMoralRights, SeverityBlocker, ""), needs: []string{"moral", "attribut", "integrity", "paternity", "author", "credit", "droit"}, match: moralWaiver, conf: 0.85, only: true}
	ruleBroadLicence = ruleCase{info: weightyCase(titleBroadLicence, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen", "permission"}, kw: []string{"grant", "give", "provide", "confer", "assign", "hereby", "you"}, match: broadLicence, conf: 0.75, group: "licence"}
	ruleLicenceAfter = ruleCase{info: weightyCase(titleLicenceAfter, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen", "permission"}, kw: []string{"surviv", "after", "continue", "following"}, match: licenceAfterClosing, conf: 0.75, group: "licence"}
	ruleLicenceThird = ruleCase{info: weightyCase(titleLicenceThird, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen"}, kw: []string{"affiliat", "third", "partner", "successor", "other"}, match: licenceToThirdParties, conf: 0.75, group: "licence"}
)

var (
	// the moral rights by name or by what they are: to be named as the
	// author (attribution, paternity) and to object to a distortion of
	// the work (integrity)
	moralRe = mustPattern(`\bmoral (rights?|or (\w+ ){0,2}rights)\b|\bdroits? moraux\b|\bdroit moral\b|\brights? (of|to) (attribution|integrity|paternity)\b|\bright to (be )?(identified|named|credited|attributed) as (the )?(author|creator)|\bright to object to (\w+ ){0,3}(derogatory|distortion|mutilation|modification)|\bauthorship rights\b`)
	// using the user's work without naming them, which a waiver of the
	// attribution right permits: "we may use, edit and publish your
	// content without attribution to you"
	noAttributionRe = mustPattern(`\b(use|uses|publish|display|modify|edit|adapt|reproduce|distribute|exploit)\b(\s+\S+){0,14}?\s+without (any )?(attribution|attributing|crediting|credit|naming|identifying)\b`)
	moralWaiverRe   = mustPattern(`\b(waive|waives|waived|waiving|waiver|relinquish\w*|not to (assert|exercise|enforce)|not (assert|exercise|enforce)|never (assert|exercise)|consent to (\w+ ){0,6}(act|acts|use|modification)|unenforceable|not be enforced)\b`)
)

// moralWaiver: "you waive any moral rights", "you agree not to assert
// your moral rights", "all moral rights ... have been waived"; not "you
// retain all moral rights".
func moralWaiver(w string) bool {
	return moralRe.MatchString(w) && moralWaiverRe.MatchString(w) || noAttributionRe.MatchString(w) && contentRe.MatchString(w)
}

var (
	permissionGrantRe = mustPattern(`\b(grant|grants|granting|give|gives|giving|provide|provides|confer|confers)\b (\S+ ){0,4}?(permission|the right|a right|rights|authori[sz]ation)\b (\S+ ){0,3}?to (use|reproduce|copy|display|publish|distribute|modify|exploit|adapt|broadcast|perform|sell|share)\b`)
	anythingYoursRe   = mustPattern(`\b(anything|everything|whatever|all (that|of what)) you (upload|post|submit|share|create|provide|send|publish|make)\b`)
	licenceGrantRe    = mustPattern(`\b(grant|grants|granting|give|gives|giving|provide|provides|confer|confers|assign|assigns|hereby|you)\b(\s+\S+){0,40}?\s+(licen[cs]e|licen[cs]es|right|rights|permission)\b`)
	contentRe         = mustPattern(`\b(content|submissions?|materials?|ugc|posts|photos?|videos?|uploads?|user[- ]generated|creations?|works?|feedback|reviews|listings|information you|ideas)\b`)
	broadRe           = mustPattern(`\b(perpetual|perpetually|irrevocable|irrevocably|any purpose|any purposes|all purposes|whatever purpose|any (and all )?(media|manner|form)|now known or (hereafter|later) (developed|devised|invented)|unlimited|without (any )?(territorial|time) limitations?|exploit)\b`)
	wideGrantRe       = mustPattern(`\bsub-?licens\w*\b`)
	derivativeRe      = mustPattern(`\b(derivative works?|modify|adapt|adaptations?|translate|commerciali[sz]e)\b`)
	// a licence the service grants the user ("we grant you a licence to
	// use the app"; "apart from this licence, you have no other rights")
	toUserRe = mustPattern(`\b(grants? you|gives? you|granted to you|licen[cs]ed to you|you (are|have been) granted|no other rights)\b`)
	// the service passing the licence on ("we may sub-license the above
	// licence to our affiliates", "these rights may be assigned to third
	// parties")
	licenceOnRe  = mustPattern(`\b(sub-?licen[cs]\w*|assign\w*|transfer\w*)\b(\s+\S+){0,10}?\s+to (our |its |any |other )*(affiliates|third[- ]part(y|ies)|partners|successors|other (users|companies|parties))\b`)
	afterCloseRe = mustPattern(`\b(surviv\w+|even after|after (you )?(delete|close|terminat|remov|cancel|stop)|continues? (after|following|beyond)|following (the )?(termination|deletion|closure))\b`)
)

// grantsContentLicence: the user grants a licence to their content.
func grantsContentLicence(w string) bool {
	if toUserRe.MatchString(w) {
		return false
	}
	if !strings.Contains(w, "licen") {
		// a licence in other words: "you give us permission to use,
		// reproduce and display anything you upload"
		return permissionGrantRe.MatchString(w) && (contentRe.MatchString(w) || anythingYoursRe.MatchString(w))
	}
	return licenceGrantRe.MatchString(w) && contentRe.MatchString(w) || strings.Contains(w, "you grant")
}

// broadLicence: a licence to the user's content that is perpetual,
// irrevocable, for any purpose or in any media, or sublicensable with the
// right to modify.
func broadLicence(w string) bool {
	if !grantsContentLicence(w) {
		return false
	}
	return broadRe.MatchString(w) || wideGrantRe.MatchString(w) && derivativeRe.MatchString(w)
}

// licenceToThirdParties: the service may pass the user's licence on to
// affiliates or third parties. The words are a licence's ("sub-license",
// "assign the above licence") even where the content is named only in
// the sentence before.
func licenceToThirdParties(w string) bool {
	return !toUserRe.MatchString(w) && licenceOnRe.MatchString(w) && strings.Contains(w, "licen")
}

// licenceAfterClosing: the licence survives the user's deleting content or
// closing the account.
func licenceAfterClosing(w string) bool {
	return grantsContentLicence(w) && afterCloseRe.MatchString(w)
}
