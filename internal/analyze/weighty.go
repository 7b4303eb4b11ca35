package analyze

import (
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// The weighty practices (issue 21 item 5) are found by rules as well as by
// the learned case model: the model learns each from a few dozen ToS;DR
// quotes and misses wordings they lack, while these practices are stated
// in a small legal vocabulary that a pattern covers across wordings
// ("waive ... moral rights", "in no event ... liable", "class or
// representative action"). The patterns were written from ToS;DR's quotes
// of each case (shared/data/tosdr/points.jsonl, the model's training data)
// and the case labels' guidelines, then narrowed on the false alarms of
// the labelled services of folds 0-2 (cmd/eval-cases -dump; folds 3-4
// kept unread to check them), each narrowing a reading of who acts or
// what for rather than a sentence; who is bound is decided afterwards
// (gate), as for every finding. Each rule's case carries cases.tsv's title,
// rating and category, so its findings are the learned case's.

// Titles of the weighty cases, as cases.tsv spells them.
const (
	titleBroadLicence   = "The copyright license maintained by the service over user data and/or content is broader than necessary."
	titleLicenceAfter   = "This service keeps a license on user-generated content even after users close their accounts."
	titleLicenceThird   = "This service can license user content to third parties"
	titleTargetedAds    = "The service uses your personal data to employ targeted third-party advertising"
	titleAds            = "The service uses your personal data for advertising"
	titleGivenThird     = "Your personal data is given to third parties"
	titleSellUnlessOpt  = "The service may sell your data unless you opt out"
	titleMoralRights    = "You waive your moral rights"
	titleClassAction    = "You waive your right to a class action."
	titleArbitration    = "This service forces users into binding arbitration in the case of disputes"
	titleNoLiability    = "This service assumes no liability for any losses or damages resulting from any matter relating to the service"
	titleLiabilityFees  = "Any liability on behalf of the service is only limited to the fees you paid as a user"
	titleTermination    = "The service can delete your account without prior notice and without a reason"
	titleChangeNoNotice = "Terms may be changed any time at their discretion, without notice to the user"
	titleKeepsDeleted   = "This service holds onto content that you've deleted"
	titleBiometric      = "Your biometric data is collected"
	titleOtherSites     = "This service tracks you on other websites"
)

func weightyCase(title, rating, category string) model.CaseInfo {
	return model.CaseInfo{Title: title, Rating: rating, Category: category}
}

// weightyRules are the rule cases of the weighty practices, tried in this
// order; the arbitration opt-out (optout.go) comes after them and, where it
// matches, stands for the arbitration category alone.
// Termination, changes, advertising and sale or sharing are only: on the
// labelled sentences the learned cases of those titles added one sentence
// the rules missed (now found by a rule) and a dozen false alarms the
// rules' readings of actor and purpose avoid.
var weightyRules = []ruleCase{
	{info: weightyCase(titleMoralRights, SeverityBlocker, ""), needs: []string{"moral", "attribut", "integrity", "paternity", "author", "credit", "droit"}, match: moralWaiver, conf: 0.85, only: true},
	{info: weightyCase(titleLicenceAfter, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen", "permission"}, kw: []string{"surviv", "after", "continue", "following"}, match: licenceAfterClosing, conf: 0.75, group: "licence"},
	{info: weightyCase(titleLicenceThird, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen"}, kw: []string{"affiliat", "third", "partner", "successor", "other"}, match: licenceToThirdParties, conf: 0.75, group: "licence"},
	{info: weightyCase(titleBroadLicence, SeverityBad, ""), needs: []string{"licen", "sublicen", "sub-licen", "permission"}, kw: []string{"grant", "give", "provide", "confer", "assign", "hereby", "you"}, match: broadLicence, conf: 0.75, group: "licence"},
	{info: weightyCase(titleClassAction, SeverityBad, "arbitration"), needs: []string{"class", "representative", "collective", "consolidat", "mass", "group", "individual", "attorney"}, match: classActionWaiver, conf: 0.85},
	{info: weightyCase(titleArbitration, SeverityBad, "arbitration"), needs: []string{"arbitra", "waiv"}, match: bindingArbitration, conf: 0.8},
	{info: weightyCase(titleLiabilityFees, SeverityBad, "limitation_of_liability"), needs: []string{"liab"}, kw: []string{"exceed", "limited to", "greater", "lesser", "excess", "cap", "amount", "total", "aggregate", "maximum", "cumulative", "entire", "overall", "paid"}, match: liabilityCap, conf: 0.85, group: "liability"},
	{info: weightyCase(titleNoLiability, SeverityBad, "limitation_of_liability"), needs: []string{"liab", "responsib"}, kw: []string{"not", "no ", "never", "cannot", "disclaim", "exclu", "limit", "without", "risk", "event", "circumstances", "n't", "neither"}, match: noLiability, conf: 0.8, group: "liability"},
	{info: weightyCase(titleTermination, SeverityBad, "unilateral_termination"), needs: []string{"terminat", "suspen", "delet", "disabl", "deactivat", "clos", "cancel", "block", "restrict", "remov", "revok", "discontinu", "refus", "deny", "ban"}, kw: []string{"time", "without", "reason", "discretion", "will", "immediately", "cause"}, match: terminationAtWill, conf: 0.75, only: true},
	{info: weightyCase(titleChangeNoNotice, SeverityBad, "unilateral_change"), needs: []string{"chang", "modif", "amend", "updat", "revis", "alter", "replac"}, kw: []string{"time", "without", "discretion", "right", "periodic", "continu", "post", "effective", "visit", "check", "review", "subject to change"}, match: changeWithoutNotice, conf: 0.7, only: true},
	{info: weightyCase(titleSellUnlessOpt, SeverityBad, "data_sale"), needs: []string{"sell", "sold", "rent", "sale"}, match: sellsData, conf: 0.75, only: true},
	{info: weightyCase(titleTargetedAds, SeverityBad, "tracking"), needs: []string{"advertis", "ads", "marketing", "iba", "oba"}, match: targetedThirdPartyAds, conf: 0.75, only: true, group: "ads", keepOthers: true},
	{info: weightyCase(titleAds, SeverityBad, "tracking"), needs: []string{"advertis", "ads"}, match: personalisedAds, conf: 0.7, only: true, group: "ads", keepOthers: true},
	{info: weightyCase(titleKeepsDeleted, SeverityBlocker, "retention"), needs: []string{"retain", "keep", "kept", "stor", "preserv", "hold", "remain", "persist", "continu", "archiv", "delet", "remov", "eras", "cop"}, kw: []string{"after", "once", "following", "despite", "even", "deleted", "removed", "copies"}, match: keptAfterDeletion, conf: 0.75, keepOthers: true},
	{info: weightyCase(titleBiometric, SeverityBad, "data_collection"), needs: []string{"biometric", "face", "facial", "voiceprint", "voice", "iris", "retina", "palm", "fingerprint"}, match: collectsBiometrics, conf: 0.8, keepOthers: true},
	{info: weightyCase(titleOtherSites, SeverityBad, "tracking"), needs: []string{"across", "other", "third", "cross", "off", "different", "non-affiliated", "unaffiliated"}, kw: []string{"track", "collect", "monitor", "follow", "observ", "record", "gather", "log", "about"}, match: tracksOnOtherSites, conf: 0.75, keepOthers: true},
	{info: weightyCase(titleGivenThird, SeverityBad, "third_party_sharing"), needs: []string{"shar", "disclos", "provid", "transfer", "available", "giv", "pass"}, kw: []string{"third", "partner", "advertis", "affiliat", "compan", "broker", "sponsor", "network", "marketing"}, match: sharedWithThirdParties, conf: 0.7, only: true, keepOthers: true},
}

// negatedBefore: a negation among the n words before position i of w.
func negatedBefore(w string, i, n int) bool {
	return negatorRe.MatchString(lastWords(w[:i], n))
}

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

var (
	// keeping what the user deleted: kept, stored, not deleted, copies
	// that remain
	keepRe = mustPattern(`\b(retain|retains|retained|retaining|keep|keeps|kept|keeping|store|stores|stored|storing|preserve|preserves|preserved|hold|holds|remain|remains|persist|persists|archive|archives|archived|continue to (use|store|retain|keep|display|hold|process)|(not|n't) (\S+ ){0,2}?(delete|deleted|remove|removed|erase|erased|purge|purged))\b`)
	// after the user deleted it
	afterDeleteRe = mustPattern(`\b(after|even after|once|even if|even though|following|despite) (you |the user |users |a user )?(have |has )?((delet|remov|eras)\w*|(clos|cancel|terminat|deactivat)\w* (your |the |their |an? )?(user )?(account|profile|membership)|(the )?(deletion|closure|termination) of (your |the |their )?(account|profile|content|data|information))\b|\b(deleted|removed) (content|data|information|posts|photos|messages|files|accounts?|items)\b|\b(content|data|information|posts|photos|messages|files|items) (that |which )?you (have )?(deleted|removed)\b|\b(residual|backup|cached|archived|archival) copies\b|\bcopies (\S+ ){0,8}?(remain|persist)\b`)
	// what is kept is the user's data or content, not an obligation or
	// the account itself
	keptDataRe = mustPattern(`\b(data|information|content|posts?|photos?|messages?|files?|copies|copy|records?|backups?|profile|comments?|videos?|uploads?)\b`)
	// kept to comply with the law: a case of its own (data kept after
	// erasure for legal obligations), not this one; nor is what "remains
	// our property" or "remains in effect"
	legalHoldRe = mustPattern(`\blegal (obligations?|requirements?|reasons|purposes|claims)|\brequired by (law|applicable law)|\bcomply with\b|\bas (reasonably )?necessary\b|\bremain\w* (\w+ ){0,2}(property|in (full )?(force|effect)|responsible|liable|active|valid|binding)\b`)
	// a bounded period is another case ("backups are deleted within 30
	// days"); without limit it is this one
	boundedRe   = mustPattern(`\b(\d+|thirty|sixty|ninety|one|two|three|six|twelve|forty-eight|twenty-four) (hours?|days?|weeks?|months?)\b|\b(limited|short|reasonable|brief|certain) (period|time)\b|\bwithin\b|\bup to\b`)
	unlimitedRe = mustPattern(`\b(indefinitely|forever|unlimited|undefined|no time limit)\b`)
)

// keptAfterDeletion: the service keeps (copies of) what the user
// deleted, for no limited time.
func keptAfterDeletion(w string) bool {
	return keepRe.MatchString(w) && afterDeleteRe.MatchString(w) && keptDataRe.MatchString(w) && !legalHoldRe.MatchString(w) && (!boundedRe.MatchString(w) || unlimitedRe.MatchString(w))
}

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

// otherSitesRe: the user's activity followed beyond the service, on other
// websites and apps ("track your activity across other websites",
// "information about your online activities over time and across
// third-party websites").
var otherSitesRe = mustPattern(`\b(track|tracks|tracking|tracked|collect\w*|monitor\w*|follow\w*|observ\w*|record\w*|gather\w*|log|logs|logged|information about|data about)\b(\s+\S+){0,20}?\s+(across|on|over|at|from) (other|third[- ]party|different|non-affiliated|unaffiliated|multiple|various|many) (\S+ ){0,2}?(websites|sites|apps|applications|services|online services|platforms|devices|browsers)\b|\b(track|tracks|tracking|tracked|collect\w*|follow\w*)\b(\s+\S+){0,20}?\s+across (the )?(internet|web|websites|sites|apps|devices|platforms)\b|\bover time and across\b|\bcross[- ](site|app|device|context) (track\w*|behaviou?ral|advertis\w*|activit\w*)|\boff[- ](facebook|site|platform|app) activity\b`)

// tracksOnOtherSites: the service or its partners follow the user's
// activity across other websites or apps; a sentence about opting out of
// it is the user's choice.
func tracksOnOtherSites(w string) bool {
	return otherSitesRe.MatchString(w) && !adOptOutRe.MatchString(w) && personRe.MatchString(w)
}

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

var (
	sellRe       = mustPattern(`\b(sell|sells|selling|rent|rents|renting|trade|trades|monetize)\b(\s+\S+){0,8}?\s+(data|information|details|personal|lists?)\b|\b(data|information|details)\b(\s+\S+){0,6}?\s+(sold|rented)\b|\bsales?( or sharing)? of (your |personal |user |customer )+(data|information)\b`)
	ccpaSaleRe   = mustPattern(`\b(considered|deemed|constitutes?|qualify as|defined as) (a |an )?(sale|sales|selling|sharing)\b`)
	optOutWordRe = mustPattern(`\bopt(-| )?out\b|\bdo not sell\b`)
	saleOutRe    = mustPattern(`\b(merger|acquisition|acquired|bankruptcy|insolvency|reorgani[sz]ation|business transfer|change of control|assets|sale of (all|substantially|the company|our (company|business)|a business))\b`)
)

// sellsData: personal data sold or rented unless the user opts out (not
// in a merger or bankruptcy, which is another case), not negated just
// before. A sale without an opt-out stays the privacy patterns' blocker.
func sellsData(w string) bool {
	if saleOutRe.MatchString(w) {
		return false
	}
	// "some of our disclosures may be considered a sale under the CCPA":
	// a sale in the law's sense, which the user may opt out of
	if ccpaSaleRe.MatchString(w) {
		return true
	}
	if !optOutWordRe.MatchString(w) {
		return false
	}
	for _, loc := range sellRe.FindAllStringIndex(w, 4) {
		if !negatedBefore(w, loc[0], 4) {
			return true
		}
	}
	return false
}

var (
	personalAdsRe = mustPattern(`\b(personali[sz]ed|targeted|tailored|interest[- ]based|behaviou?ral|relevant|customi[sz]ed|personal|custom|retargeting|re-targeting|remarketing)\b(\s+\S+){0,2}?\s+(ads|advertising|advertisements?|adverts|ad|marketing|offers|promotions)\b|\b(ads|advertising|advertisements?|adverts)\b(\s+\S+){0,10}?\s+(based on|tailored to|relevant to|according to|that match|that may interest|of interest to|that you might|you may (like|be interested))\b|\b(target|targets|targeting|personali[sz]e|personali[sz]ing|tailor|tailoring|customi[sz]e)\b(\s+\S+){0,4}?\s+(ads|advertising|advertisements?|adverts|ad|marketing)\b`)
	dataUseAdsRe  = mustPattern(`\b(use|uses|used|using|process|processes|processed|analy[sz]e|combine|collect|collects|share|shares|shared|disclose)\b(\s+\S+){0,15}?\s+(information|data|activity|activities|interests|preferences|browsing|history|profile|usage)\b(\s+\S+){0,20}?\s+(advertis\w*|ads|advertisements?)\b|\b(advertis\w*|ads)\b(\s+\S+){0,3}?\s+(purposes)\b`)
	// "we engage in IBA", "we let advertising providers collect
	// identifiers through our apps": the third parties' targeted ads
	adPartnersRe = mustPattern(`\b(iba|oba)\b|\b(let|lets|allow|allows|permit|permits|enable|enables)\b (\w+ ){0,3}(advertising|marketing) (\w+ ){0,3}(providers|partners|networks|companies|vendors)\b(\s+\S+){0,4}?\s+(to )?(collect|use|place|set|access|receive)\b`)
	// a sentence about opting out of such ads is the user's choice (a
	// good case of its own)
	adOptOutRe = mustPattern(`\bopt(-| )?(you )?(out|outs|ed out|ing out)\b|\bopting out\b|\bopted[- ]out\b|\b(choices?|controls|prefer not|do not wish|object to|right to object)\b`)
	// whose data or whose ads: a sentence about advertising in general
	// ("targeted advertising is more effective") names neither
	personRe   = mustPattern(`\b(you|your|we|us|our)\b`)
	thirdAdsRe = mustPattern(`\b(third[- ]part(y|ies)|partners?|ad networks?|advertising networks?|advertisers|ad (tech|servers?|exchanges?)|google|facebook|meta|vendors|other (sites|websites|apps|services|platforms)|across (\w+ ){0,2}(sites|websites|apps|devices|services)|off our|outside (of )?our)\b`)
)

// personalisedAds: advertising built on the user's data or activity.
func personalisedAds(w string) bool {
	if adOptOutRe.MatchString(w) || !personRe.MatchString(w) {
		return false
	}
	for _, re := range [...]*pattern{personalAdsRe, dataUseAdsRe} {
		if loc := re.FindStringIndex(w); loc != nil && !negatedBefore(w, loc[0], 4) {
			return true
		}
	}
	return false
}

// targetedThirdPartyAds: personalised advertising through or by third
// parties (ad networks, partners, across other sites).
func targetedThirdPartyAds(w string) bool {
	if loc := adPartnersRe.FindStringIndex(w); loc != nil && !negatedBefore(w, loc[0], 4) && !adOptOutRe.MatchString(w) {
		return true
	}
	return personalisedAds(w) && thirdAdsRe.MatchString(w)
}

var (
	shareRe       = mustPattern(`\b(share|shares|shared|sharing|disclose|discloses|disclosed|disclosing|provided to|provides? (your |personal |the |such |this |that |certain )*(data|information|details)|transfer|transfers|transferred|make available|made available|makes available|give|gives|given|pass|passes|passed|sell|sells)\b(\s+\S+){0,25}?\s+(advertis\w*|ad networks?|ad partners?|marketing partners?|data brokers?|sponsors|third[- ]part(y|ies)|business partners|partners|affiliates|other companies|companies|social (media )?networks?)\b`)
	dataWordRe    = mustPattern(`\b(data|information|details|profile|email|e-mail|address|identifiers?|it|this)\b`)
	onlyNeutralRe = mustPattern(`\b(law enforcement|legal|court|authorit\w*|government\w*|subpoena|regulators?|merger|merg\w+|corporate transactions?|all or part of (its|our) business|acquisition|bankruptcy|insolvency|comply|compliance|protect (the |our )?(rights|safety)|fraud)\b`)
	providerRe    = mustPattern(`\b(service providers?|processors?|vendors|contractors|on our behalf|who (perform|provide) services|acting (for|on behalf of|as) (us|our)|(assist|help) us|perform(ing)? (these|such|those) (functions|services)|with your (consent|permission)|at your (request|direction))\b`)
	anonRe        = mustPattern(`\b(aggregated?|anonymi[sz]ed|de-identified|non-personal|pseudonymi[sz]ed)\b`)
	adsWordRe     = mustPattern(`\b(advertis\w*|marketing|ad networks?|data brokers?|sponsors|business partners|their own (purposes|marketing))\b`)
	// recipients that are the advertising business itself, which no
	// mention of processors makes neutral
	adRecipientRe = mustPattern(`\b(advertisers|ad networks?|advertising (partners|networks|companies)|marketing partners|data brokers?)\b`)
	// who shares, when it is not the service: "you may share information
	// with third parties", "these providers may share this data"
	otherSharerRe = mustPattern(`\b(you|users?|members|they|third[- ]part(y|ies)|providers?|services|partners|advertisers|individuals)( (may|can|will|might|could|also|choose to|be able to|to|not))* $`)
	// the data comes to the service ("provide us with", "information from
	// third-party sources"), or the law gives the user a right to ask
	inboundRe  = mustPattern(`^(provided|give|gives|given|pass|passes|passed) (to )?(you|us)\b`)
	fromRe     = mustPattern(`\bfrom (our |other |certain )?(third[- ]part\w*|partners|other (companies|sources))\b`)
	askRightRe = mustPattern(`\b(right to (know|request|ask)|entitled to (ask|request|know)|may request (information|a notice|details))\b`)
	weRe       = mustPattern(`\b(we|us)\b`)
	reducedRe  = mustPattern(`\b(reduce|reducing|limit|limiting|minimi[sz]e|minimi[sz]ing)$`)
)

// sharedWithThirdParties: the service gives personal data to third
// parties for their own ends (advertising, marketing, partners), not only
// to processors or authorities (neutral cases of their own), nor
// anonymised; the sharer is the service, not the user or a third party.
func sharedWithThirdParties(w string) bool {
	// an opt-out of the sale or sharing is the sale case (sellsData)
	if !dataWordRe.MatchString(w) || anonRe.MatchString(w) || askRightRe.MatchString(w) || optOutWordRe.MatchString(w) {
		return false
	}
	shared := false
	for _, loc := range shareRe.FindAllStringIndex(w, 4) {
		before := strings.TrimRight(lastWords(w[:loc[0]], 5), " ")
		if negatedBefore(w, loc[0], 4) || otherSharerRe.MatchString(before+" ") && !weRe.MatchString(before) || reducedRe.MatchString(before) || inboundRe.MatchString(w[loc[0]:]) {
			continue
		}
		shared = true
		break
	}
	if !shared {
		return false
	}
	if adRecipientRe.MatchString(w) {
		return true
	}
	if providerRe.MatchString(w) || fromRe.MatchString(w) {
		return false
	}
	return adsWordRe.MatchString(w) || !onlyNeutralRe.MatchString(w)
}
