package analyze

import (
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// Disputes: binding arbitration and the waiver of class actions, and the
// arbitration opt-out, the good case of the same category.

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

// ruleArbitrationOptOut is the arbitration opt-out's rule case, tried after
// weightyRules (ruleCases, weighty.go).
var ruleArbitrationOptOut = ruleCase{
	info:      model.CaseInfo{Title: "This service does not force users into binding arbitration", Rating: SeverityGood, Category: "arbitration"},
	needs:     []string{"arbitra"},
	exclusive: true,
	match:     arbitrationOptOut,
	// Its precision: the 23 CLAUDETTE sentences (train, validation, newer)
	// it matches are all in opt-out passages (17 grant the opt-out or say
	// how to use it, 5 say what follows from it, 1 recalls an earlier
	// version's); of the 77 in the corpus's terms (30 services), 70 are
	// about the user's opt-out, 6 about a way out of a mass arbitration
	// after a failed mediation or a court's ruling (Spotify, Bumble,
	// Windstream; one the company's own) and 1 is negated further back
	// than the rule looks.
	conf: 0.9,
}

var (
	// "you may opt out of", "you can decline", "you have 30 days to opt
	// out", "to opt out, you must notify us": the user, or the procedure,
	// opting out. Decline and reject need "you": "the AAA may decline to
	// administer the arbitration" is no opt-out.
	optOutRe = mustPattern(`\b(?:you(?: [^ ]+){0,4}? (opt out|opt-out|optout|decline|reject)|to (opt out|opt-out|optout))\b`)
	// "if you do not wish to be bound by this arbitration agreement,
	// email us" (what follows must say how: optOutActRe, not leaveRe).
	notWishRe   = mustPattern(`\bif you (?:do not|do n't|dont) (?:wish|want) to (?:[^ ]+ ){0,6}?arbitra[^ ]*`)
	optOutActRe = mustPattern(`\b(?:opt out|opt-out|decline|reject|notify|notifying|notice|e-mail|email|write|writing|send|sending|mail|contact|visit|call)\b`)
	// "... you must not use the service", "... close your account": leaving
	// the service is no opt-out.
	leaveRe = mustPattern(`\b(?:not|stop|cease|discontinue)(?: [^ ]+)? (?:use|using|access|accessing)\b|\b(?:close|terminate|cancel|delete) your\b`)
)

// optOutWindow is how many words after the verb may separate it from the
// arbitration it opts out of ("to opt out, you must notify Rovio in writing
// within 30 days of the date that you first became subject to this
// arbitration provision").
const optOutWindow = 20

var (
	// negations, among the six words before the verb, make it no opt-out:
	// "you may not opt out", "you cannot reject", "if you fail to opt out".
	negations = []string{"not", "no", "never", "cannot", "n't", "neither", "nor", "without", "fail", "fails", "failure"}
	// exceptions, anywhere before the verb, make the sentence the binding
	// arbitration that the opt-out is the exception to: "unless you opt
	// out, disputes will be resolved by binding arbitration" (ToS;DR's
	// curators rate such quotes as the bad case).
	exceptions = []string{"unless", "except"}
	// otherObjects, between the verb and the arbitration (or just after
	// it), make the object something else: "reject any such change to this
	// arbitration provision" (the old provision still binds), "reject our
	// settlement offer before the arbitrator", "opt out of marketing
	// emails; disputes go to arbitration".
	otherObjects = []string{"change", "changes", "amendment", "amendments", "modification", "modifications", "revision", "revisions", "update", "updates", "offer", "settlement",
		"marketing", "promotional", "newsletter", "newsletters", "advertising", "ads", "cookies", "tracking", "sale", "sharing", "messages", "sms"}
)

// arbitrationOptOut reports whether a sentence gives the user a way out of
// arbitration.
func arbitrationOptOut(w string) bool {
	for _, loc := range optOutRe.FindAllStringSubmatchIndex(w, -1) {
		before := strings.Fields(w[:max(loc[2], loc[4])])
		if anyOf(before[max(0, len(before)-6):], negations) || anyOf(before, exceptions) {
			continue
		}
		after := strings.Fields(w[loc[1]:])
		after = after[:min(len(after), optOutWindow)]
		k := slices.IndexFunc(after, func(s string) bool { return strings.HasPrefix(s, "arbitra") })
		if k >= 0 && !anyOf(after[:min(len(after), k+2)], otherObjects) {
			return true
		}
	}
	if loc := notWishRe.FindStringIndex(w); loc != nil {
		rest := w[loc[1]:]
		return optOutActRe.MatchString(rest) && !leaveRe.MatchString(rest)
	}
	return false
}

// anyOf reports whether one of words is one of set.
func anyOf(words, set []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(set, w) })
}
