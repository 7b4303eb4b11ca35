package analyze

import (
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// Changes: the service may change its terms at any time without notice
// (changeWithoutNotice); a paragraph that promises notice makes it the
// neutral case of a change with notification (holdNotice); a change of the
// privacy policy itself is the privacy patterns' policy_change_notice, not
// the clause classifier's unilateral_change (privacyPolicyChange), whose
// patterns are in privacy.go (privacyCats).

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

// titleChangeNotified is ToS;DR's neutral case for a change clause whose
// document promises notice of the changes.
const titleChangeNotified = "The service may change its terms at any time, but the user will receive notification of the changes."

// holdNotice: a change clause is not "without notice" when its paragraph
// promises notice of the changes ("We may update this policy from time to
// time. If we make material changes, we will notify you by email at least
// 30 days before they take effect."): among the hits of one paragraph
// (hits[first:], of sentences lo to hi-1), a sentence promising notice
// (noticePromised) turns the other sentences' "changed without notice"
// case into ToS;DR's neutral case of a change with notice, or drops it
// where the case model lacks that case or the paragraph has it already.
// A clause that says "without notice" itself keeps its case.
func (e *Engine) holdNotice(d *doc, hits []hit, first, lo, hi int) []hit {
	change := false
	for _, h := range hits[first:] {
		change = change || h.cas >= 0 && e.cd.m.Cases[h.cas].Title == titleChangeNoNotice
	}
	if !change {
		return hits
	}
	notified := -1
	for i := lo; i < hi && notified < 0; i++ {
		if noticePromised(strings.ToLower(quoteFolder.Replace(d.sentence(i)))) {
			notified = i
		}
	}
	if notified < 0 {
		return hits
	}
	out := hits[:first]
	for _, h := range hits[first:] {
		if h.cas >= 0 && h.sent != notified && e.cd.m.Cases[h.cas].Title == titleChangeNoNotice &&
			!withoutNotice.MatchString(strings.ToLower(d.sentence(h.sent))) {
			j := slices.IndexFunc(e.cd.m.Cases, func(c model.CaseInfo) bool { return c.Title == titleChangeNotified })
			if j < 0 || hasHit(out[first:], "unilateral_change", SeverityNeutral) {
				continue
			}
			h = hit{h.sent, e.cd.m.Cases[j].Category, SeverityNeutral, h.conf, j, 0}
			if h.cat == "" {
				h.cat = "unilateral_change"
			}
		}
		out = append(out, h)
	}
	return out
}

var (
	// a promise of notice: "we will notify you", "you will receive an
	// email", "30 days' prior notice"; "we may notify you" promises none
	noticePromiseRe = mustPattern(`\b(will|shall|'ll|commit to|promise to)( \w+){0,4}? (notify|inform|tell|e-?mail|alert|contact|let you know|send you|give you|provide you|provide( \w+){0,2} notice|ask for|seek|obtain)\b|\byou will (be notified|be informed|receive( \w+){0,3} (notice|notification|e-?mail|message))\b|\b(\d+|seven|fourteen|fifteen|thirty|sixty|ninety|one|two|a) (days?|weeks?|months?)'?( \w+){0,2}? notice\b`)
	// about the changes
	changeWordRe = mustPattern(`\b(chang|modif|amend|updat|revis)\w*`)
	// notice only by posting the new text or its date, which the case
	// labels' guidelines read as no notice at all
	postingOnlyRe = mustPattern(`\b(by|such as|like|including) (posting|updating|revising|changing|publishing|placing|displaying)\b|\b(will|shall) be (posted|published)\b|\b(updat\w*|revis\w*|chang\w*) the (\S+ ){0,3}date\b|\bchange ?log\b`)
	// notice only where the law requires it promises nothing of the
	// service's own
	lawNoticeRe = mustPattern(`\b(as|where|when|if|to the extent( that)?) (\w+ ){0,2}(required|necessary|mandated|permitted) by (\w+ ){0,2}law\b|\bas (the )?law requires\b`)
	// what follows "may" is no promise ("... and in some cases we may
	// send you an email")
	mayTailRe = mustPattern(`\b(may|might|can|could)\b.*$`)
	// a promise says when: "30 days before", "in advance", "before they
	// take effect"
	noticeTimeRe  = mustPattern(`\b\d+ (days?|weeks?|months?)\b|\b(seven|fourteen|fifteen|thirty|sixty|ninety|one|two) (days?|weeks?|months?)\b|\bin advance\b|\b(before|prior to) (they|it|the|any|such|these|those|that|this|them)\b`)
	noticeMeansRe = mustPattern(`\be-?mail|\bin-app\b|\bnotification|\bdirect mail|\bmessage|\bprominent|\bpush\b|\bletter\b`)
)

// noticePromised: low (a lower-cased sentence) promises notice of
// changes with its means (email, in the app, ...) or its time (30 days
// before, in advance), by more than posting them or their date, with no
// negation, not only where the law requires it, and before any "may".
func noticePromised(low string) bool {
	if !changeWordRe.MatchString(low) || noticeNegRe.MatchString(low) || withoutNotice.MatchString(low) || lawNoticeRe.MatchString(low) {
		return false
	}
	loc := noticePromiseRe.FindStringIndex(low)
	if loc == nil {
		return false
	}
	// the promise runs from its verb to any "may" after it, and says how
	// (by more than posting) or when
	w := low[loc[0]:loc[1]] + mayTailRe.ReplaceAllString(low[loc[1]:], "")
	means := noticeMeansRe.MatchString(w)
	return (means || noticeTimeRe.MatchString(w)) && (means || !postingOnlyRe.MatchString(w))
}

var privacyDocRe = mustPattern(`(?i)\b(privacy|cookie|data protection) (policy|notice|statement|polic)|\bthis (notice|statement)\b`)

// privacyPolicyChange: the patterns found a policy_change_notice in a
// sentence about the privacy policy itself.
func privacyPolicyChange(ph []privacyHit, s string, privacyDoc bool) bool {
	for _, p := range ph {
		if p.cat == "policy_change_notice" {
			return privacyDocRe.MatchString(s) || privacyDoc && thisPolicyRe.MatchString(s)
		}
	}
	return false
}

var thisPolicyRe = mustPattern(`(?i)\b(this|our|the|its) (policy|notice|statement)\b`)
