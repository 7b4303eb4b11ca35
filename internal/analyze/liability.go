package analyze

// Liability: excluded altogether, or capped at an amount (the fees paid).

// Titles of the cases, as cases.tsv spells them.
const (
	titleLiabilityFees = "Any liability on behalf of the service is only limited to the fees you paid as a user"
	titleNoLiability   = "This service assumes no liability for any losses or damages resulting from any matter relating to the service"
)

// The rule cases, tried in weightyRules' order (weighty.go).
var (
	ruleLiabilityFees = ruleCase{info: weightyCase(titleLiabilityFees, SeverityBad, "limitation_of_liability"), needs: []string{"liab"}, kw: []string{"exceed", "limited to", "greater", "lesser", "excess", "cap", "amount", "total", "aggregate", "maximum", "cumulative", "entire", "overall", "paid"}, match: liabilityCap, conf: 0.85, group: "liability"}
	ruleNoLiability   = ruleCase{info: weightyCase(titleNoLiability, SeverityBad, "limitation_of_liability"), needs: []string{"liab", "responsib"}, kw: []string{"not", "no ", "never", "cannot", "disclaim", "exclu", "limit", "without", "risk", "event", "circumstances", "n't", "neither"}, match: noLiability, conf: 0.8, group: "liability"}
)

var (
	capRe = mustPattern(`\b(liability|liable|liabilities|damages|responsibility)\b(\s+\S+){0,40}?\s+(exceed|exceeds|limited to|not to exceed|greater of|lesser of|in excess of|capped|cap|more than|the amount|amounts? (paid|you paid)|fees (paid|you paid))\b|\b(total|aggregate|maximum|cumulative|entire|overall) (\w+ ){0,3}liability\b`)
	// "without liability" qualifies another act (terminate, remove) and "at
	// your own risk" is the as-is case: neither is the exclusion
	noLiabRe        = mustPattern(`\b(not|no|never|nor|cannot) (be )?(held )?(liable|responsible|liability|accountable)\b|\bneither\b(\s+\S+){0,12}?\s+(will|shall|is|are|can|may) (be )?(held )?(liable|responsible)\b|\b(assumes?|accepts?|takes?|bears?) no (liability|responsibility)\b|\b(disclaim|disclaims|exclude|excludes|excluded|limit|limits)\w* (\w+ ){0,5}(liability|liabilities|responsibility|claims|damages)\b|\bin no event\b(\s+\S+){0,40}?\s+(liable|liability|responsible|damages)\b|\bunder no circumstances\b(\s+\S+){0,40}?\s+(liable|liability|responsible|damages)\b`)
	linkedContentRe = mustPattern(`\b(third[- ]party|linked|external|other) (web ?sites?|sites|links|content|services|products|applications)\b|\blinks? to\b`)
	userLiableRe    = mustPattern(`^(you|the user|users?) (are|is|will be|shall be|remain) (solely |fully |entirely )?(liable|responsible)\b`)
	// what the exclusion is for, when that makes it another case or none:
	// other users' conduct, third parties' services ("not responsible for
	// the conduct of other users", but not "liable to you or any third
	// party for any damages"), force majeure ("beyond our reasonable
	// control")
	otherPartyRe = mustPattern(`^(\s*\S+){0,4}?\s+for\b(\s+\S+){0,6}?\s+(other (users?|people|persons|parties)|users|others|another (user|person)|third[- ]part\w*|conduct|behaviou?r)\b|\b(beyond|outside( of)?) (\S+ ){0,3}(reasonable )?control\b|\bforce majeure\b`)
	// an exclusion of losses or of all liability, or an intro whose list
	// names them ("assumes no liability for:", its colon gone from the
	// words); "not responsible for the accuracy of the content" is
	// another case
	lossRe = mustPattern(`\b(loss|losses|lost|damage|damages|harm|injury|injuries|claims?|costs|expenses|consequences|anything|whatsoever)\b|\b(all|any and all) (liability|liabilities|responsibility)\b|\b(fullest|maximum|full) extent\b|\b(for|from|following)$`)
	// "some jurisdictions do not allow the exclusion of liability", "a
	// limited liability company": the words without the exclusion
	notExclusionRe = mustPattern(`\b(jurisdictions|states|countries|laws?) (do|does|may) not (allow|permit)\b|\blimited liability (company|partnership)\b|\b(you|users?|customers?)\b(\s+\S+){0,4}?\s+(indemnify|indemnifies|defend)\b`)
)

// liabilityCap: liability limited to an amount ("shall not exceed the fees
// you paid", "aggregate liability ... limited to $100").
func liabilityCap(w string) bool {
	return capRe.MatchString(w) && !userLiableRe.MatchString(w) && !notExclusionRe.MatchString(w)
}

// noLiability: liability excluded or disclaimed ("in no event shall we be
// liable", "we are not responsible for any loss"), not for linked
// third-party content (a case of its own).
func noLiability(w string) bool {
	loc := noLiabRe.FindStringIndex(w)
	if loc == nil || negatedBefore(w, loc[0], 3) || userLiableRe.MatchString(w) || linkedContentRe.MatchString(w) || notExclusionRe.MatchString(w) {
		return false
	}
	return lossRe.MatchString(w[loc[0]:]) && !otherPartyRe.MatchString(w[loc[1]:])
}
