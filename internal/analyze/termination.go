package analyze

// Termination: the service may end or suspend the user's account at will.
// The CLAUDETTE category unilateral_termination has its vetoes in rules.go.

// The case's title, as cases.tsv spells it.
const titleTermination = "The service can delete your account without prior notice and without a reason"

// The rule case, tried in weightyRules' order (weighty.go).
var ruleTermination = ruleCase{info: weightyCase(titleTermination, SeverityBad, "unilateral_termination"), needs: []string{"terminat", "suspen", "delet", "disabl", "deactivat", "clos", "cancel", "block", "restrict", "remov", "revok", "discontinu", "refus", "deny", "ban"}, kw: []string{"time", "without", "reason", "discretion", "will", "immediately", "cause"}, match: terminationAtWill, conf: 0.75, only: true}

var (
	terminateRe    = mustPattern(`\b(terminate|terminates|terminated|termination|suspend|suspends|suspended|suspension|delete|deletes|deleted|disable|disables|disabled|deactivate|deactivates|deactivated|close|closes|closed|cancel|cancels|cancelled|canceled|block|blocks|blocked|restrict|restricts|restricted|remove|removes|removed|discontinue|discontinues|revoke|revokes|revoked|refuse|deny|ban|bans|banned)\b(\s+\S+){0,8}?\s+(account|accounts|access|membership|registration|subscription|use|licen[cs]e|profile|right to use|participation|using|accessing|(users?|members?|you|anyone) from)\b|\b(account|accounts|access|membership|registration|subscription|licen[cs]e|profile)\b(\s+\S+){0,5}?\s+(terminated|suspended|deleted|disabled|deactivated|closed|cancelled|canceled|blocked|restricted|revoked|removed)\b`)
	strongAtWillRe = mustPattern(`\b(for any (\w+ )?(reason|or no reason)|or no reason|for no reason|without (\w+ ){0,2}(reason|cause)|at will|with or without (cause|reason)|any reason whatsoever)\b`)
	// "access to any of the user contributions": the content's removal,
	// a case of its own
	contentAccessRe = mustPattern(`\baccess to (\w+ ){0,4}(content|contributions|posts|uploads|materials|files)\b`)
	conditionRe     = mustPattern(`\b(if|in the following|found|where|in case|in the event|upon|should you|violat\w*|breach\w*)\b`)
	atWillRe        = mustPattern(`\b(at any time|any time|anytime|without (\w+ ){0,2}(notice|warning|cause|reason|liability|explanation|notification)|for any (reason|or no reason)|for no reason|any reason|no reason|(sole|absolute|own) (and (absolute|sole) )?discretion|at will|immediately|with or without (cause|notice|reason))\b`)
)

// terminationAtWill: the service may end or suspend the user's account or
// access at any time, without notice or reason, at its discretion.
func terminationAtWill(w string) bool {
	if !atWillRe.MatchString(w) || !terminateRe.MatchString(w) || contentAccessRe.MatchString(w) {
		return false
	}
	// "... in the following circumstances:", "if you breach": reasons
	// given, unless any reason will do
	return strongAtWillRe.MatchString(w) || !conditionRe.MatchString(w)
}
