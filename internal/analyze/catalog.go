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
	t, found := catalog[cat][sev]
	if !found {
		t = ratingWording[sev]
		t.title = "A practice rated " + sev + " by ToS;DR's reviewers"
	}
	if caseTitle == "" {
		return t.title, t.explanation, t.guidance
	}
	if why, ok := caseWhy[caseTitle]; ok && !found {
		// the case's own reason, then how seriously ToS;DR's reviewers
		// take it where that is the worst
		explanation = caseExplanation(caseTitle) + " " + why
		if sev == SeverityBlocker {
			explanation += " " + t.explanation
		}
		return caseTitle, explanation, t.guidance
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

// SeverityRank orders severities from worst (0) to best: findings are
// listed most severe first.
func SeverityRank(s string) int {
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

// caseWhy says why a case matters to the reader, for the cases whose
// category has no wording at their rating (cases of OtherCategory, a
// blocker case of a category whose findings are otherwise bad, ...):
// without it their explanation would only restate the title and say how
// ToS;DR's reviewers rate it (TestEveryCaseExplainsWhy).
var caseWhy = map[string]string{
	// blocker
	"The service can delete specific content without reason and may do it without prior notice": "What you post or store can disappear at the company's choice, with no warning and no explanation, so you may have no chance to save a copy or to contest the removal.",
	"You waive your moral rights":                         "Moral rights let an author be named as the creator of a work and object to distorting edits; waiving them lets the company and its licensees change your work or use it without crediting you.",
	"This service holds onto content that you've deleted": "Deleting something does not remove every copy: the company keeps what you deleted (in backups, archives or shared copies) and may still use or disclose it, or lose it in a breach.",
	// bad
	"This service forces users into binding arbitration in the case of disputes":                                               "A dispute with the company goes to a private arbitrator instead of a court: proceedings are usually confidential, hard to appeal and can cost more than a small claim is worth.",
	"You waive your right to a class action.":                                                                                  "You cannot join other users in one lawsuit against the company; each claim must be brought alone, which makes small harms that affect many users impractical to pursue.",
	"The service may sell your data unless you opt out":                                                                        "Your personal data may be sold or shared for advertising by default; it stays protected only if you find and use the opt-out, on each browser or device where it is asked.",
	"If you offer suggestions to the service, they become the owner of the ideas that you give them":                           "Any idea or feedback you send becomes the company's to use and sell without paying or crediting you, even if you later want to use it yourself.",
	"The copyright license maintained by the service over user data and/or content is broader than necessary.":                 "The licence you grant lets the company copy, change, publish and sublicense your content far beyond what running the service needs, often worldwide, for free and without end.",
	"The court of law governing the terms is in a jurisdiction that is less friendly to user privacy protection.":              "Disputes are decided under a law or by courts that protect personal data less than where you may live, which weakens the remedies you have if your data is misused.",
	"The service can distribute your content through any media known now or in the future":                                     "The company may republish what you upload in any format or channel, including ones that do not exist yet, without asking you again.",
	"The service can read your private messages":                                                                               "Messages you consider private can be read by the company (by staff or by automated systems), so they may be used for moderation, advertising or disclosed to others.",
	"The service does not guarantee accuracy or reliability of the information provided":                                       "The company takes no responsibility for whether the information it shows you is correct, so decisions based on it are at your own risk.",
	"The service does not guarantee that software errors will be corrected":                                                    "Bugs that affect you may never be fixed, and the company accepts no duty to fix them, even for a service you pay for.",
	"The service is provided 'as is' and to be used at the users' sole risk":                                                   "The company disclaims any promise that the service works, is safe or is fit for your purpose; if it fails or causes harm, you carry the loss.",
	"The service provider makes no warranty regarding uninterrupted, timely, secure or error-free service":                     "Outages, delays, security failures and errors are excluded from what the company promises, so you may have no remedy when they happen.",
	"The service refers users to external documents for more information":                                                      "Part of what binds you is in other documents the terms point to; those can contain further obligations and may change separately.",
	"This service can license user content to third parties":                                                                   "The company may pass rights to your content on to other companies (partners, affiliates or buyers), which can use it under their own terms.",
	"This service can use your content for all their existing and future services":                                             "Content you give for one purpose can be reused in any of the company's other products, including ones launched later, without asking you again.",
	"This service does not guarantee that it or the products obtained through it meet the users' expectations or requirements": "The company disclaims any promise that the service or what you buy through it does what you need, which limits your claims if it does not.",
	"This service keeps a license on user-generated content even after users close their accounts.":                            "Closing your account does not end the rights you gave over your content: the company may keep using and showing it after you leave.",
	"This service retains rights to your content even after you stop using your account":                                       "The rights you granted over your content outlast your use of the service: stopping does not take them back.",
	"This services gives no guarantee regarding quality":                                                                       "The company makes no promise about the quality of the service, so poor service gives you little ground for a refund or a claim.",
	"Usernames can be rejected for any reason":                                                                                 "The company can refuse or take away a username you chose without giving a reason, which can cut you off from your identity on the service.",
	"Users cannot scrape the website of the service":                                                                           "Collecting data from the service automatically is forbidden, even for personal archiving or research, and doing it can get your account closed.",
	"Users have a reduced time period to take legal action against the service":                                                "You must bring a claim within a shorter time than the law would otherwise allow; after it, you lose the claim even if it was valid.",
	"Users shall not interfere with another person's enjoyment of the service":                                                 "A vague duty not to disturb other users' enjoyment gives the company broad grounds to act against your account.",
	"You agree to defend, indemnify, and hold the service harmless in case of a claim related to your use of the service":      "If someone sues the company over something connected with your use of the service, you may have to pay the company's legal costs and damages.",
	"You are solely responsible for claims made against the service and agree to indemnify and hold harmless the service.":     "Claims against the company arising from your use fall on you alone: you may have to pay its defence and any damages.",
	"You must provide your legal name, pseudonyms are not allowed":                                                             "You cannot use the service under a pseudonym, so what you do there is tied to your real identity, which can expose you to harassment or profiling.",
	"defend, indemnify, hold harmless; survives termination":                                                                   "Your duty to cover the company's costs for claims connected with your use continues even after you close your account.",
	// good
	"Features of the website are made available under a free software license":                                                  "Parts of the service are free software: you can inspect, reuse and share them under the licence's terms.",
	"If you are the target of a copyright holder's take down notice, this service gives you the opportunity to defend yourself": "If your content is accused of infringing copyright, you can answer the claim before it is decided, instead of losing the content automatically.",
	"Only necessary user logs are kept by the service to ensure quality":                                                        "The company keeps only the logs it needs to run the service, so less data about your use exists to leak or be disclosed.",
	"The court of law governing the terms is in a jurisdiction that is friendlier to user privacy protection.":                  "Disputes are decided under a law that protects personal data well, which strengthens your remedies if your data is misused.",
	"The service allows you to use pseudonyms":                                                                                  "You can use the service without your real name, which protects you from profiling and harassment.",
	"The service informs users about the risk of publishing personal info online":                                               "The service warns you that what you publish can be seen, copied and kept by others, so you can decide what to share.",
	"The service provides a free help desk":                                                                                     "You can get help from a person at no charge when something goes wrong with your account or the service.",
	"The service warns you of the potential consequences related to third-party access":                                         "You are told what can happen when you let other apps or people access your account or data, so you can decide whether to allow it.",
	"The terms for this service are easy to read":                                                                               "The terms are written plainly, so you can understand what you agree to without a lawyer.",
	"This service provides archives of their Terms of Service so that changes can be viewed over time":                          "Earlier versions of the terms are kept public, so you can see exactly what changed and when.",
	"Users are entitled to a refund if certain thresholds or standards are not met by the service":                              "If the service falls below the standards it promises, you are owed a refund rather than having to argue for one.",
	"You have the right to leave this service at any time":                                                                      "You can close your account and stop using the service whenever you want, without a fixed term or a penalty.",
	"You maintain ownership of your data":                                                                                       "What you upload stays yours: the company uses it only under the rights you grant, and does not own it.",
	"When the service wants to make a material change to its terms, users are notified at least 30 days in advance":             "You hear about important changes a month before they apply, which leaves time to read them and leave if you disagree.",
	"User suspension from the service will be fair and proportionate.":                                                          "The company commits to suspend accounts only in proportion to what was done, which gives you grounds to contest an excessive suspension.",
	// neutral
	"If you are the target of a copyright claim, your content may be removed":                                                                 "A copyright complaint against your content can lead to its removal, usually through a notice process in which you can respond.",
	"This service can delete your content if you violate the terms":                                                                           "Content that breaks the rules can be removed; what counts as a violation is set by the terms and the company's reading of them.",
	"The service is not responsible for linked or (clearly) quoted content from third-party content providers":                                "What other providers publish through links or quotes on the service is their responsibility, not the company's.",
	"This service assumes no responsibility and liability for the contents of links to other websites":                                        "Websites the service links to are outside its responsibility; their terms and practices apply once you follow a link.",
	"Failure to enforce any provision of the Terms of Service does not constitute a waiver of such provision":                                 "The company can still enforce a rule later even if it let a breach pass before.",
	"Invalidity of any portion of the Terms of Service does not entail invalidity of its remainder":                                           "If a court strikes down one clause, the rest of the terms still apply.",
	"Other applicable rules, terms, conditions or guidelines":                                                                                 "Other documents (rules, guidelines, product terms) also bind you; they are part of what you agree to.",
	"Prohibits the posting of content which promotes or glorifies violence or politically or religiously extremist values.":                   "Content promoting violence or extremism is forbidden and can be removed, with your account at risk.",
	"Prohibits the posting of pornographic content":                                                                                           "Sexual content is forbidden on the service; posting it can lead to removal or account action.",
	"Provides instructions on how to submit a copyright claim":                                                                                "The terms say how to report content that infringes your copyright.",
	"Service does not allow alternative accounts":                                                                                             "You may hold only one account; a second one can be closed.",
	"Spidering or crawling is not allowed":                                                                                                    "Automated collection of the service's pages is forbidden.",
	"The service has a no refund policy":                                                                                                      "Payments are final: if you cancel or are unhappy, you should not expect your money back.",
	"The service informs users that its privacy policy does not apply to third party websites":                                                "Other websites you reach through the service follow their own privacy policies, not this one.",
	"There is a date of the last update of the terms":                                                                                         "The terms show when they last changed, so you can tell whether the version you read is current.",
	"This service does not condone any ideas contained in its user-generated contents":                                                        "What users post is their own view; the company does not endorse it.",
	"This service is only available for use individually and non-commercially.":                                                               "You may use the service only for yourself and not for business; commercial use can breach the terms.",
	"This service prohibits users from attempting to gain unauthorized access to other computer systems":                                      "Trying to break into the service or other systems through it is forbidden.",
	"This service prohibits users sending chain letters, junk mail, spam or any unsolicited messages":                                         "Sending spam or unsolicited messages through the service is forbidden.",
	"Users agree not to submit illegal content":                                                                                               "You may not post anything unlawful; doing so breaches the terms.",
	"Users agree not to submit libelous, harassing or threatening content":                                                                    "Defamatory, harassing or threatening posts are forbidden and can cost you your account.",
	"Users agree not to use the service for illegal purposes":                                                                                 "Using the service for anything unlawful breaches the terms.",
	"Users agree to comply with the law of the service's country":                                                                             "You must follow the law of the company's country as well as your own while using the service.",
	"Users are not allowed to use pseudonyms, as trust and transparency between users regarding their identities is relevant to the service.": "You must use your real identity on the service, so what you do there is tied to your name.",
	"Users are responsible for any risks, damages, or losses they may incur by downloading materials":                                         "Harm from files you download through the service, such as malware or data loss, is yours to bear.",
	"Users who have been permanently banned from this service are not allowed to re-register under a new account":                             "A permanent ban is final: you may not come back under a new account.",
	"You are responsible for maintaining the security of your account and for the activities on your account":                                 "Whatever happens under your login counts as yours, so a weak or shared password can make you answer for others' actions.",
	"You authorise the service to charge a credit card supplied on re-occurring basis":                                                        "Your card is charged again each period until you cancel, so a forgotten subscription keeps costing you.",
	"You cannot distribute or disclose your account to third parties":                                                                         "Your account is personal: sharing or selling it breaches the terms.",
	"Your personal data is aggregated into statistics":                                                                                        "Data about you is combined into statistics, which are usually no longer about you alone but may still be shared.",
	"only for your individual use":                                                                                                            "The service is licensed to you personally; using it for others or for business may breach the terms.",
	"The service may change its terms at any time, but the user will receive notification of the changes.":                                    "The company can change the terms, but it tells you first, so you can review the changes and decide whether to stay.",
	"The service can suspend your account for several reasons":                                                                                "The terms list reasons for which your account can be suspended; read them to know what could cut off your access.",
}
