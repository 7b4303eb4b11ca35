package analyze

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Severities, from worst to best.
const (
	SeverityBlocker = "blocker"
	SeverityBad     = "bad"
	SeverityNeutral = "neutral"
	SeverityGood    = "good"
)

// Privacy categories, found by the learned privacy detector and patterns.
var PrivacyCategories = []string{
	"data_collection",
	"third_party_sharing",
	"data_sale",
	"retention",
	"tracking",
	"children",
	"international_transfer",
	"user_rights",
	"security",
	"policy_change_notice",
}

// OtherCategory is the category of a ToS;DR case none of ours fits
// (indemnities, warranty disclaimers, content licences, ...).
const OtherCategory = "other"

// Categories lists every category the engine can emit: the eight
// unfair-clause categories (ClauseLabels), the ten privacy categories, then
// OtherCategory.
var Categories = append(append(append([]string{}, ClauseLabels...), PrivacyCategories...), OtherCategory)

// text is the wording of one finding kind.
type text struct{ title, explanation, guidance, check string }

// catalog holds title, explanation, guidance and checklist wording per
// category and severity.
//
// Severity of the unfair-clause categories (found by the classifier):
//
//	arbitration               blocker  (you give up court and usually class actions)
//	limitation_of_liability   bad
//	unilateral_termination    bad
//	unilateral_change         bad
//	content_removal           bad
//	jurisdiction              bad      (a far-away court makes claims impractical)
//	contract_by_using         neutral  (common, but you are bound without signing)
//	choice_of_law             neutral  (a foreign law may apply)
//
// Privacy categories (found by the privacy detector and patterns) are
// blocker for selling personal data, bad for risky practices (sharing with
// advertisers, indefinite retention, cross-site tracking, changes without
// notice, sensitive data), neutral for plain disclosures and for practices
// the detector finds without a pattern deciding how good they are, and good
// for protective commitments (no sale, deletion on request, opt-out,
// encryption, notice before changes).
var catalog = map[string]map[string]text{
	"arbitration": {
		SeverityBlocker: {"Disputes go to private arbitration",
			"You agree to settle disputes before a private arbitrator instead of a court. Arbitration is usually confidential, hard to appeal, and often comes with a waiver of class actions, so small claims may not be worth pursuing.",
			"Look for an opt-out window (often 30 days after you accept) and use it if you want to keep your right to go to court; check whether small-claims court and class actions are excluded.",
			"Decide whether to opt out of arbitration (check the deadline and how to send the notice)."},
		// An opt-out (ruleCases) is good only if it is used in time.
		SeverityGood: {"You can opt out of arbitration",
			"You can keep your right to go to court by opting out of the arbitration agreement, usually only within a short window after you first accept the terms.",
			"If you want to keep your right to sue in court or join a class action, send the opt-out notice the clause describes before its deadline.",
			""},
	},
	"limitation_of_liability": {
		SeverityBad: {"The company limits or excludes its liability",
			"The company says it is not responsible, or only up to a small amount, if the service fails, loses your data or causes you harm. In many countries some of these exclusions are not enforceable against consumers, but they discourage claims.",
			"Check the cap (often the fees you paid in the last months) and what is excluded; keep your own backups and do not rely on the service for anything you cannot afford to lose.",
			"Check how much the company caps its liability and keep your own backups."},
	},
	"unilateral_termination": {
		SeverityBad: {"Your account can be suspended or closed at the company's discretion",
			"The company can end or suspend your access at any time, sometimes without notice or a reason. You could lose content, purchases or credits.",
			"Check whether you get notice, a reason, an appeal and a refund of prepaid amounts; export anything important regularly.",
			"Export your data regularly; check notice, appeal and refund rules if your account is closed."},
	},
	"unilateral_change": {
		SeverityBad: {"The company can change the terms on its own",
			"The company can change the agreement (or the service and prices) whenever it wants, and the new terms bind you, often just by continuing to use the service.",
			"Check whether you are notified in advance (email, in-app) and whether you can cancel and get a refund if you reject a change.",
			"Find out how changes to the terms are announced and whether you can leave with a refund."},
	},
	"content_removal": {
		SeverityBad: {"Your content can be removed without notice",
			"The company may delete or block what you upload or publish at its own discretion, possibly without telling you or explaining why.",
			"Keep copies of content you care about; check whether there is a notice and appeal process.",
			"Keep copies of what you upload; check whether removals can be appealed."},
	},
	"contract_by_using": {
		SeverityNeutral: {"Using the service means accepting the terms",
			"You are bound by these terms merely by visiting or using the service, without signing or clicking anything.",
			"Read the terms before first use, including documents they incorporate by reference (privacy policy, community rules).",
			"Read the documents the terms incorporate by reference before you start using the service."},
	},
	"choice_of_law": {
		SeverityNeutral: {"A specific country's or state's law governs the contract",
			"Disputes are decided under a law chosen by the company, which may differ from the law where you live. Mandatory consumer protection of your country usually still applies.",
			"Note which law applies and whether consumer protections of your country are preserved.",
			"Note which law governs the terms."},
	},
	"jurisdiction": {
		SeverityBad: {"Disputes must be brought in the company's chosen courts",
			"You may have to sue or defend yourself in courts far from where you live, which makes enforcing your rights expensive.",
			"Check whether consumers may still use the courts of their home country and whether small claims are excepted.",
			"Check where you would have to go to court."},
	},
	"data_collection": {
		SeverityBad: {"Sensitive personal data is collected",
			"The service collects sensitive information such as precise location, biometric, health, financial or contact-list data, which can cause real harm if misused or leaked.",
			"Check whether this collection is optional, turn off permissions you do not need (location, contacts, microphone) and ask what it is used for.",
			"Review which sensitive data (location, contacts, biometrics, health) you can decline to share."},
		SeverityNeutral: {"Personal data is collected",
			"The service collects information about you or your device. That is normal, but the more is collected, the more can be shared, leaked or misused.",
			"Check what is collected automatically versus what you provide, and whether you can use the service with less.",
			"Check what personal data is collected and which of it is optional."},
		SeverityGood: {"Limited data collection",
			"The service commits to collecting less, or not collecting certain kinds of data.",
			"Check that the commitment covers partners and automatic collection too.",
			""},
	},
	"third_party_sharing": {
		SeverityBad: {"Your data is shared with third parties such as advertisers or partners",
			"Personal data leaves the company for advertising, marketing or business partners, who have their own policies and may combine it with other data about you.",
			"Find the list of recipients and their purposes, and use any opt-out for sharing or personalised ads.",
			"Check who your data is shared with and opt out of sharing for advertising where possible."},
		SeverityNeutral: {"Your data is disclosed to service providers or authorities",
			"Data is passed to processors working for the company or disclosed when the law requires it. This is common but worth knowing.",
			"Check that service providers are bound to use the data only for the company.",
			"Check which service providers receive your data."},
		SeverityGood: {"No sharing with third parties for their own purposes",
			"The company commits not to share your personal data with third parties for their own use.",
			"Check the exceptions (service providers, legal requests, business transfers).",
			""},
	},
	"data_sale": {
		SeverityBlocker: {"Your personal data may be sold",
			"The company may sell or rent your personal information to others, who can use it for their own purposes.",
			"Use the \"Do not sell or share my personal information\" option if offered (a legal right in several US states) and limit what you provide.",
			"Opt out of the sale of your personal data."},
		SeverityNeutral: {"The sale of personal data is addressed",
			"The policy speaks about selling or \"sharing\" personal data for value, or about your right to refuse it.",
			"Check whether your data is sold or shared for advertising, and how to opt out.",
			"Check whether your data is sold and how to opt out."},
		SeverityGood: {"Your personal data is not sold",
			"The company states that it does not sell or rent your personal information.",
			"Check whether \"sharing\" for advertising is treated differently from \"selling\".",
			""},
	},
	"retention": {
		SeverityBad: {"Data may be kept indefinitely or after you delete it",
			"Your information may be retained for an open-ended period or even after you close your account, which prolongs the risk of leaks and misuse.",
			"Ask how long each kind of data is kept and request deletion when you leave.",
			"Ask how long data is kept after you close your account and request deletion."},
		SeverityNeutral: {"Data retention is described",
			"The policy says how or why data is kept. Vague periods such as \"as long as necessary\" leave the company a lot of room.",
			"Look for concrete retention periods per kind of data.",
			"Look for concrete retention periods."},
		SeverityGood: {"Data is deleted within a defined period",
			"The company commits to deleting or anonymising data after a specific time or on request.",
			"Check whether backups and logs follow the same period.",
			""},
	},
	"tracking": {
		SeverityBad: {"You are tracked for advertising, possibly across sites and devices",
			"Cookies, pixels, device identifiers or similar technologies follow your activity, including by third parties, to profile you and target ads.",
			"Reject non-essential cookies, use the ad-personalisation opt-outs and tracker blocking, and reset your advertising ID.",
			"Reject non-essential cookies and turn off personalised advertising."},
		SeverityNeutral: {"Cookies or similar technologies are used",
			"The service uses cookies or analytics to operate and measure use.",
			"Check the cookie settings and which cookies are optional.",
			"Review the cookie settings."},
		SeverityGood: {"Tracking is limited or can be refused",
			"The company limits tracking or honours signals such as Do Not Track or Global Privacy Control.",
			"Enable Global Privacy Control or Do Not Track in your browser.",
			""},
	},
	"children": {
		SeverityBad: {"Children's data may be collected",
			"The service may collect information from children, who deserve extra protection.",
			"Check parental consent and controls before a child uses the service.",
			"Check parental consent and controls for children."},
		SeverityNeutral: {"Rules about children",
			"The policy addresses children's use of the service or their data.",
			"Check the minimum age and what happens to data collected from under-age users.",
			""},
		SeverityGood: {"Children's data is protected",
			"The service is not directed at children and says it does not knowingly collect their data or deletes it when discovered.",
			"Make sure children do not use the service under an adult's account.",
			""},
	},
	"international_transfer": {
		SeverityBad: {"Data goes to countries with weaker protection",
			"Your data may be moved to countries whose laws protect it less than yours, and the company says so.",
			"Check which safeguards (standard contractual clauses, adequacy decisions) are used and how to get a copy.",
			"Check where your data is stored and what safeguards apply to transfers."},
		SeverityNeutral: {"Data is transferred to other countries",
			"Your information may be stored or processed outside your country.",
			"Check which safeguards apply to international transfers.",
			"Check where your data is stored and processed."},
		SeverityGood: {"International transfers are safeguarded",
			"Transfers rely on recognised safeguards such as standard contractual clauses or adequacy decisions.",
			"You can usually ask for a copy of the safeguards.",
			""},
	},
	"user_rights": {
		SeverityBad: {"Your control over your data is limited",
			"The policy restricts deleting, accessing or correcting your data.",
			"Ask the company directly; in the EU, UK and several US states these rights are legal rights.",
			"Ask how to access, correct or delete your data."},
		SeverityNeutral: {"Your rights over your data are described",
			"The policy describes what you can ask or choose about your data, or how to make a request.",
			"Note how to make a request (settings page, form, email) and which rights apply where you live.",
			""},
		SeverityGood: {"You can access, delete or control your data",
			"You can ask for a copy of your data, correct or delete it, opt out or withdraw consent.",
			"Note how to make a request (settings page, form, email) and the response time.",
			""},
	},
	"security": {
		SeverityBad: {"The company disclaims responsibility for security",
			"The company warns it cannot protect your data or disclaims liability for breaches.",
			"Use a unique password and two-factor authentication; avoid storing sensitive data there.",
			"Use a unique password and two-factor authentication."},
		SeverityNeutral: {"How your data is secured is described",
			"The policy speaks about protecting your data; no system is perfectly secure, and the company may say so.",
			"Use a unique password and enable two-factor authentication if offered.",
			""},
		SeverityGood: {"Security measures are described",
			"The company describes safeguards such as encryption, access controls or breach notification.",
			"Enable two-factor authentication if it is offered.",
			""},
	},
	"policy_change_notice": {
		SeverityBad: {"The policy can change without notice",
			"Changes may take effect when posted, and it is on you to check the page; continued use counts as acceptance.",
			"Check the policy's \"last updated\" date from time to time, or use a monitor.",
			"Monitor the policy for changes, since you may not be notified."},
		SeverityNeutral: {"The policy may be updated",
			"The company may update the policy from time to time.",
			"Check how you will be told about changes.",
			""},
		SeverityGood: {"You are notified before changes",
			"The company commits to notifying you (for example by email) before material changes take effect.",
			"Keep your contact email current so you receive the notices.",
			""},
	},
}

// ratingWording is what a case finding whose category has no wording at
// its rating (a good termination clause, a case of OtherCategory) means
// for the reader, after the case itself (caseExplanation), and what to do.
var ratingWording = map[string]text{
	SeverityBlocker: {"", "ToS;DR's reviewers rate it among the worst terms a user can accept.", "Read the quoted clause closely and consider whether you can accept it.", ""},
	SeverityBad:     {"", "ToS;DR's reviewers count it against users.", "Read the quoted clause and check whether it applies to how you use the service.", ""},
	SeverityNeutral: {"", "Worth knowing, neither for nor against you.", "Note it; no action is usually needed.", ""},
	SeverityGood:    {"", "It is in your favour: a commitment you can hold the company to.", "Note it: it is a commitment you can hold the company to.", ""},
}

// wording returns the title, explanation and guidance of a finding of a
// category at a severity. A case finding (caseTitle its case) is titled
// as its case and its explanation starts with what the case says, then
// what the category (or, where the category has no wording at that
// severity, the rating) means for the reader.
func wording(cat, sev, caseTitle string) (title, explanation, guidance string) {
	t, ok := catalog[cat][sev]
	if !ok {
		t = ratingWording[sev]
		t.title = "A practice rated " + sev + " by ToS;DR's reviewers"
	}
	if caseTitle == "" {
		return t.title, t.explanation, t.guidance
	}
	return caseTitle, caseExplanation(caseTitle) + " " + t.explanation, t.guidance
}

// caseExplanation restates a case's title as what the clause says ("You
// waive your moral rights" -> "This clause says that you waive your moral
// rights."), so the explanation names the practice, not only its rating.
func caseExplanation(title string) string {
	t := strings.TrimRight(strings.TrimSpace(title), ".")
	r, n := utf8.DecodeRuneInString(t)
	// "You ...", "This service ..." read on in lower case; an acronym
	// ("VPN ...") keeps its capitals
	if n < len(t) && !unicode.IsUpper(rune(t[n])) {
		t = string(unicode.ToLower(r)) + t[n:]
	}
	return "This clause says that " + t + "."
}

// SeverityRank orders severities from worst (0) to best, for a caller that
// lists findings most severe first.
func SeverityRank(s string) int { return severityRank(s) }

// severityRank orders severities from worst (0) to best.
func severityRank(s string) int {
	switch s {
	case SeverityBlocker:
		return 0
	case SeverityBad:
		return 1
	case SeverityNeutral:
		return 2
	}
	return 3
}

// clauseSeverity is the severity of a classifier finding.
var clauseSeverity = map[string]string{
	"arbitration":             SeverityBlocker,
	"limitation_of_liability": SeverityBad,
	"unilateral_termination":  SeverityBad,
	"unilateral_change":       SeverityBad,
	"content_removal":         SeverityBad,
	"jurisdiction":            SeverityBad,
	"contract_by_using":       SeverityNeutral,
	"choice_of_law":           SeverityNeutral,
}
