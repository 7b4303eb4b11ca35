package analyze

// Disputes: binding arbitration and the waiver of class actions. The
// arbitration opt-out, the good case of the same category, is optout.go's.

// Titles of the cases, as cases.tsv spells them.
const (
	titleClassAction = "You waive your right to a class action."
	titleArbitration = "This service forces users into binding arbitration in the case of disputes"
)

// The rule cases, tried in weightyRules' order (weighty.go).
var (
	ruleClassAction = ruleCase{info: weightyCase(titleClassAction, SeverityBad, "arbitration"), needs: []string{"class", "representative", "collective", "consolidat", "mass", "group", "individual", "attorney"}, match: classActionWaiver, conf: 0.85}
	ruleArbitration = ruleCase{info: weightyCase(titleArbitration, SeverityBad, "arbitration"), needs: []string{"arbitra", "waiv"}, match: bindingArbitration, conf: 0.8}
)

var (
	classRe = mustPattern(`\b(mass|group) (actions?|claims|lawsuits|proceedings)\b|\b(class|collective|representative|consolidated) (action|actions|arbitration|arbitrations|proceeding|proceedings|claims?|lawsuits?|suits?|basis|capacity|member|members|or representative|action or|, consolidated|wide)\b|\bclass-(action|wide)\b|\bprivate attorney general\b|\brepresentative\S* (actions?|proceedings?|claims?)\b`)
	// "claims only in your individual capacity", "disputes may not be
	// consolidated": a class waiver where a dispute is what is meant
	individualRe = mustPattern(`\bindividual (capacity|basis)\b|\bconsolidat\w*\b`)
	// "claims may only be brought", "disputes must be resolved": the
	// individual basis as a restriction, not "the arbitrator may award
	// relief on an individual basis"
	onlyRe    = mustPattern(`\b(only|solely|exclusively|must|shall|may not|cannot|not)\b`)
	disputeRe = mustPattern(`\b(claims?|disputes?|proceedings?|actions?|lawsuits?|arbitrat\w*|plaintiff|court)\b`)
	// "if this class action waiver is found unenforceable": what follows
	// the waiver's failing, not the waiver
	waiverFailsRe = mustPattern(`\b(unenforceable|invalid|null and void|void|voidable|unconscionable)\b`)
	classWaiverRe = mustPattern(`\b(waive|waives|waived|waiver|not|no|never|only|individual|individually|solely|cannot|prohibit\w*|bar|barred|exclude\w*|forgo|give up|may n't|wo n't)\b`)
)

// classActionWaiver: claims only on an individual basis, no class or
// representative actions.
func classActionWaiver(w string) bool {
	if !classRe.MatchString(w) && !(individualRe.MatchString(w) && disputeRe.MatchString(w) && onlyRe.MatchString(w)) {
		return false
	}
	return classWaiverRe.MatchString(w) && !waiverFailsRe.MatchString(w)
}

var bindingArbRe = mustPattern(`\bbinding (individual |confidential )?arbitration\b|\b(resolved|settled|decided|determined|submitted|referred|brought|heard|resolve|settle|submit) (exclusively |solely |only |finally )?(by|through|in|to|before|via|under) (\S+ ){0,6}?arbitrat|\b(shall|will|must) be arbitrated\b|\bmandatory arbitration\b|\bagree(s|d)? (that )?(\w+ ){0,12}?(to|will|shall|must) (be )?(resolve|resolved|settle|settled|submit|submitted|arbitrate)\b(\s+\S+){0,20}?\s+arbitrat|\bagree to arbitrate\b|\barbitration (is|shall be|will be) (the )?(exclusive|sole|mandatory|binding)|\bexclusively (by|through) arbitration\b|\b(referred|submitted|subject) to\b(\s+\S+){0,6}?\s+(for |to )?arbitration\b|\bwaive\w* (\w+ ){0,6}rights? to (sue|go to court|a (jury )?trial|have (\w+ ){0,3}(resolved|heard|decided) in court)`)

// arbitrationStepRe: a step around the arbitration rather than the duty
// to arbitrate: who decides whether a claim is arbitrable ("the
// arbitrator shall determine the scope, validity and enforceability of
// this arbitration agreement"), the informal negotiation before it, an
// arbitration the user may choose ("you may invoke binding arbitration").
var arbitrationStepRe = mustPattern(`\b(scope|validity|enforceability|interpretation|arbitrability) of (this|the) (\w+ )?arbitration\b|\bwhether (a|any|the|such) (\w+ )?(claim|dispute|controversy) is (subject to|arbitrable)|\binformal\w*\b(\s+\S+){0,20}?\s+before (initiating|commencing|filing|starting|bringing)\b|\b(may|can) (invoke|elect|choose|opt for)\b|\b(you|either party|either you or we) may submit\b`)

// ifArbitratedRe: what holds once a dispute is in arbitration ("if the
// dispute is resolved through arbitration, the arbitrator may not ...",
// "at the time the dispute is submitted to arbitration").
var ifArbitratedRe = mustPattern(`\b(if|when|once|whether|time)\b`)

// bindingArbitration: disputes go to (binding) arbitration, unless the
// words just before negate it or make it a condition.
func bindingArbitration(w string) bool {
	if arbitrationStepRe.MatchString(w) {
		return false
	}
	for _, loc := range bindingArbRe.FindAllStringIndex(w, 4) {
		if !negatedBefore(w, loc[0], 4) && !ifArbitratedRe.MatchString(lastWords(w[:loc[0]], 6)) {
			return true
		}
	}
	return false
}
