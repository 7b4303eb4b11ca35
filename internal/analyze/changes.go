package analyze

// Changes: the service may change its terms at any time without notice.

// The case's title, as cases.tsv spells it.
const titleChangeNoNotice = "Terms may be changed any time at their discretion, without notice to the user"

// The rule case, tried in weightyRules' order (weighty.go).
var ruleChangeNoNotice = ruleCase{info: weightyCase(titleChangeNoNotice, SeverityBad, "unilateral_change"), needs: []string{"chang", "modif", "amend", "updat", "revis", "alter", "replac"}, kw: []string{"time", "without", "discretion", "right", "periodic", "continu", "post", "effective", "visit", "check", "review", "subject to change"}, match: changeWithoutNotice, conf: 0.7, only: true}

var (
	changeRe     = mustPattern(`\b(change|changes|changed|changing|modify|modifies|modified|modification|modifications|amend|amends|amended|amendment|amendments|update|updates|updated|updating|revise|revises|revised|revision|revisions|alter|alters|altered|replace|replaces|vary)\b(\s+\S+){0,8}?\s+(terms|agreement|policy|policies|conditions|eula|tos|(privacy|this|our|cookie) (statement|notice)|rules|guidelines)\b|\b(terms|agreement|policy|conditions|eula|statement)\b(\s+\S+){0,6}?\s+(changed|modified|amended|updated|revised|altered|replaced|subject to change)\b`)
	changeFreeRe = mustPattern(`\b(at any time|any time|anytime|from time to time|without (\w+ ){0,2}(notice|notification|notifying|informing|consent)|(sole|absolute|own) (and (absolute|sole) )?discretion|reserves? the right|periodically|continued (use|access)|continu\w* to use|subject to change|by posting|posting|posted|effective (immediately|upon|when|as soon)|(check|review|visit|revisit) (\w+ ){0,4}(page|policy|terms|regularly|periodically))\b`)
	// "we will update the 'last updated' date", "you can view the change
	// history": the date or the archive of the terms (cases of their
	// own), not the change
	dateOnlyRe    = mustPattern(`\b(update|updates|revise|change|changes) the (\S+ ){0,3}date\b|\blast (updated|revised|modified|changed) (date|on)\b|\b(change|revision|version) (history|log)\b|\barchive`)
	withoutNotice = mustPattern(`\bwithout (\w+ ){0,2}(notice|notification|notifying (you|users)|informing you)\b`)
	noticeRe      = mustPattern(`\b(notify|notifies|notified|notification|notice|inform you|informed|e-?mail you|let you know|tell you|alert you|\d+ days|ask for your consent|seek your consent|obtain your consent)\b`)
)

// changeWithoutNotice: the service may change the terms or the policy at
// any time or at its discretion, with notice at most by posting (the
// guidelines' reading); a promise to notify users makes it another case.
func changeWithoutNotice(w string) bool {
	if !changeRe.MatchString(w) || !changeFreeRe.MatchString(w) || dateOnlyRe.MatchString(w) {
		return false
	}
	rest := withoutNotice.ReplaceAllString(w, "")
	return !noticeRe.MatchString(rest)
}
