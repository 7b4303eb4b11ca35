package analyze

import (
	"slices"
	"strings"
)

// rule is one pattern of a privacy category. Rules of a category are tried in
// order and the first that matches a sentence decides the finding.
type rule struct {
	sev string
	re  *pattern
	not *pattern // the rule does not apply to sentences matching this
	// gate, when set, is what a sentence must contain for the pattern to
	// be tried: a few strings.Contains that every match needs, far cheaper
	// than running the pattern on sentences it cannot match
	gate func(low string) bool
	neg  bool // skip the match when a negation ("not", "never", "n't") shortly precedes it
	conf float64
}

type privacyCat struct {
	name  string
	pre   []string              // the sentence must contain one of these (cheap pre-filter)
	need  func(low string) bool // when set, what the sentence (and the paragraph, see mentions) must say
	skip  *pattern              // the category is not tried on sentences matching this
	rules []rule
}

// needs returns ru restricted to sentences containing one of kw (a cheap
// pre-filter for expensive patterns).
func needs(ru rule, kw ...string) rule {
	ru.gate = func(low string) bool { return containsAny(low, kw) }
	return ru
}

// needsBoth returns ru restricted to sentences containing one of a and one
// of b: a pattern that pairs a verb with its object ("collect ... your
// email") needs both words.
func needsBoth(ru rule, a, b []string) rule {
	ru.gate = func(low string) bool { return containsAny(low, a) && containsAny(low, b) }
	return ru
}

// except returns ru restricted to sentences that do not match pat.
func except(ru rule, pat string) rule {
	ru.not = mustPattern(pat)
	return ru
}

func r(sev string, neg bool, conf float64, pat string) rule {
	return rule{sev: sev, re: mustPattern(pat), neg: neg, conf: conf}
}

const (
	data   = `(personal |your |user |customer |such |this |the )*(information|data|details)`
	negGap = `(\w+\s+){0,3}`
)

// strongCollection is the confidence of a collection pattern that names
// the data collected (an email address, a device identifier) or the user
// providing it: such a finding stands without the learned detector's
// agreement (vagueNeutral), the vaguer "we collect" does not.
const strongCollection = 0.65

// What tells tracking from the service's own storage (GUIDELINES.md under
// tracking, round four): trackingTech names third-party or cross-site
// tracking, a technology of it or a control over it (present, absent or
// optional: "we do not use advertising cookies" is a statement about
// tracking); cookies of the service itself or of no stated party are data
// collection. functional names storage that serves the user's own visit:
// a finding on it alone quotes no tracking practice.
const (
	functional = `(^|[^-\w])(strictly |technically |absolutely )?(necessary|essential|required|functional|functionality|session|preferences?|security|authentication|load[- ]balancing|language) cookies?\b` +
		`|\bcookies? (that are |which are )?(strictly |technically )?(necessary|essential|required for)\b|\bsession (storage|ids?)\b` +
		`|\bkeeps? (you|users) (logged|signed) in\b|\bremember (your |the )?(login|log-in|language|preferences|settings|choices)\b|\bshopping (cart|basket)\b`
)

// trackingTech names a tracking technology, purpose or control, one
// pattern a way of naming it, each tried only on text with its words (as
// one alternation it was the dearest privacy pattern of a policy).
var trackingTech = []gatedPattern{
	{[]string{"third"}, mustPattern(`\bthird[- ]part(y|ies)\b[^.;]*\b(cookies|tracking|trackers|pixels?|tags|sdks?|analytics|advertis\w*|ad networks?)`)},
	{[]string{"targeted", "interest", "behavio", "personali", "tailored", "relevant", "context"}, mustPattern(`\b(targeted|interest[- ]based|behaviou?ral|personali[sz]ed|tailored|relevant|cross[- ]context)\W+(\w+\W+)?(ads?|advertis\w*|marketing)\b`)},
	{[]string{"cookies"}, mustPattern(`\b(advertising|marketing|targeting|social media|tracking|flash|third[- ]party) cookies`)},
	{[]string{"ad ", "advertising ", "idfa", "aaid", "gaid"}, mustPattern(`\bad(vertising)? (networks?|partners?|exchanges?|servers?|platforms?|technolog\w+|providers?|identifiers?|ids?|compan\w+)\b|\b(idfa|aaid|gaid)\b`)},
	{[]string{"retarget", "remarket", "re-target", "re-market"}, mustPattern(`\b(retarget|remarket|re-target|re-market)\w*`)},
	{[]string{"across", "cross"}, mustPattern(`\bacross (other |different |third[- ]party )?(websites|web ?sites|sites|apps|applications|devices|services|platforms)\b|\bcross[- ](site|device)\b`)},
	{[]string{"beacon", "pixel", "clear gif", "tag manager", "sdk", "software development kit"}, mustPattern(`\b(web )?beacons?\b|\bpixels?\b|\bclear gifs?\b|\btag manager\b|\bsdks?\b|\bsoftware development kits?\b`)},
	{[]string{"fingerprint"}, mustPattern(`\bfingerprinting\b|\b(device|browser|canvas) fingerprints?\b`)},
	{[]string{"track"}, mustPattern(`\btrackers?\b|\btracking (cookies|pixels?|scripts?|tags?|code)\b|\btrack\w* (you|users|visitors|your (activit\w+|browsing|behaviou?r|usage|visits|online))\b`)},
	{[]string{"track", "dnt", "global privacy control", "gpc"}, mustPattern(`\bdo[- ]not[- ]track\b|\bdnt\b|\bglobal privacy control\b|\bgpc\b`)},
	{[]string{"analytics", "mixpanel", "amplitude", "hotjar", "matomo", "piwik", "fullstory", "crazy", "quantcast", "comscore", "doubleclick", "criteo", "adform", "appsflyer", "trade desk", "taboola", "outbrain", "adsense", "google ads", "pixel", "linkedin insight", "microsoft clarity"}, mustPattern(`\b(google|adobe|firebase) analytics\b|\b(mixpanel|amplitude|hotjar|matomo|piwik|fullstory|crazy ?egg|quantcast|comscore|doubleclick|criteo|adform|appsflyer|the trade desk|taboola|outbrain|adsense|google ads|facebook pixel|meta pixel|linkedin insight|microsoft clarity)\b`)},
	{[]string{"analytics"}, mustPattern(`\banalytics (services?|providers?|tools?|partners?|software|compan\w+|technolog\w+|vendors?|platforms?|tags?|scripts?|programs?|solutions?)\b`)},
	{[]string{"consent management", "cmp", "consent framework", "tcf"}, mustPattern(`\bconsent management\b|\bcmp\b|\btransparency (&|and) consent framework\b|\btcf\b`)},
	{[]string{"cookies", "track", "analytics"}, mustPattern(`\bonly (use |set |place )?(strictly |technically )?(necessary|essential|functional) cookies\b|\b(not|never|n't)\s+(\w+\s+){0,3}(use|set|place|track|employ)\w*\b[^.;]*\b(cookies|trackers|tracking|analytics)\b`)},
	{[]string{"ads", "advertis"}, mustPattern(`\b(show|serve|deliver|display|present)\w* (you )?(\w+ )?(ads|advertis\w+)\b`)},
}

var functionalRe = mustPattern(functional)

// statesTracking reports whether lower-cased text states a tracking
// practice: third parties' or cross-site tracking, not the service's own
// cookies.
func statesTracking(low string) bool {
	return matchesAny(low, trackingTech)
}

// functionalOnly reports whether lower-cased text names functional storage
// and no tracking: a finding there quotes no tracking practice.
func functionalOnly(low string) bool {
	return functionalRe.MatchString(low) && !matchesAny(low, trackingTech)
}

// companyRight is the company reserving a right or its discretion, not
// the user's right.
const companyRight = `\b(reserves?|retains?|holds?|keeps?) (the |all |its |sole )?(right|discretion)`

// childrenRe is what a children's clause names.
var childrenRe = mustPattern(`\b(child|children|minors?|kids|under (the age of )?1\d|coppa)\b`)

var quoteFolder = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u2010", "-", "\u2011", "-")

// negationRe also treats "opt out of" as negating: the practice is optional.
var negationRe = mustPattern(`\b(not|never|no|nor|neither|cannot)\b|n't\b|\bopt[- ]?out (of|from)\b|\bobject to\b`)

// clauseBreakRe ends the clause a negation can reach back into.
var clauseBreakRe = mustPattern(`[;:]|\b(but|although|however|except|unless|whereas)\b`)

var privacyCats = []privacyCat{
	{name: "data_sale", pre: []string{"sell", "sold", "rent", "sale"}, rules: []rule{
		// "Do Not Sell (or Share) My Personal Information" is the name of the
		// opt-out a law requires where data is sold, not a promise.
		except(r(SeverityGood, false, 0.85, `\b(not|never)\s+`+negGap+`(sell|sold|rent)\b|\b(not|never)\b[^.;:]{0,60}\b(sell|sold|rent)\b[^.;:]{0,60}\b(data|information)|n't\s+`+negGap+`(sell|rent)\b|\bno\s+sale\b|\bwithout selling\b`),
			`\bdo not (sell|share)(\W+(or\W+)?(sell|share)\W*)?\W+my\b`),
		except(r(SeverityBlocker, true, 0.8, `\b(sell|sells|sold|selling|rent|rents|renting)\b[^.;]{0,40}\b`+data+`|\b(sale|selling|renting) of (your |personal |user |customer )+(information|data)`),
			`\b(assets?|merger|acquisition|acquired|bankruptcy|insolvency|reorgani[sz]ation|business transfer|change of control|sale of (all|substantially|the company|our (company|business)|a business))\b`),
	}},
	{name: "third_party_sharing", pre: []string{"shar", "disclos", "provid", "transfer", "available"}, rules: []rule{
		r(SeverityGood, false, 0.8, `\b(not|never)\s+`+negGap+`(share|disclose|provide|transfer|rent)\w*\b[^.;]*\b(third|advertis|partner|outside|others)|n't\s+`+negGap+`(share|disclose)\b`),
		r(SeverityBad, true, 0.75, `\b(share|shares|shared|sharing|disclose|discloses|disclosed|transfer|transfers|make\w* available)\b[^.;]*\b(advertis\w*|marketing|business partners|partners|sponsors|data brokers?)\b`),
		needs(r(SeverityNeutral, false, 0.6, `\b(transfer\w*|shar\w+|disclos\w+|sold|sell|acquir\w+)\b[^.]*\b(merger|acquisition|acquirer|bankruptcy|insolvency|reorgani[sz]ation|change of control)\b|\b(merger|acquisition|bankruptcy|insolvency|reorgani[sz]ation|change of control)\b[^.]*\b(transfer\w*|shar\w+|disclos\w+|sold|acquir\w+)\b`), "merger", "acqui", "bankruptcy", "insolvency", "reorgani", "change of control"),
		r(SeverityNeutral, true, 0.6, `\b(share|shares|shared|sharing|disclose|discloses|disclosed|transfer)\b[^.;]*\b(third[- ]part(y|ies)|service providers|vendors|processors|affiliates|law enforcement|authorities|subsidiaries)`),
	}},
	// A sentence naming children is the children's clause, not also a
	// collection finding ("we do not knowingly collect data from children
	// under 13").
	{name: "data_collection", pre: []string{"cookie", "storage", "similar technolog", "beacon", "pixel", "identifier", "collect", "gather", "obtain", "receive", "record", "access", "when you", "automatically", "passively", "log", "we use", "we may", "we also", "we process", "we analy", "we utili", "inferences", "geolocation", "electronic network", "commercial information", "professional or employment", "sensory", "audio, electronic", "protected classification", "purpose", "art. 6", "art 6", "article 6", "art.6", "legitimate interest"},
		skip: childrenRe, rules: []rule{
			needs(r(SeverityGood, false, 0.7, `\b(not|never)\s+`+negGap+`(collect|gather|record)\b|n't\s+`+negGap+`collect\b|\bonly collect\b|\bminimum (amount of )?(personal )?(data|information)`), "collect", "gather", "record", "minimum"),
			needs(r(SeverityBad, true, 0.7, `\b(collect|gather|obtain|receive|record|access)\w*\b[^.;]*\b(precise (geo)?location|gps|biometric|face ?prints?|facial (recognition|geometry)|fingerprints?|health|medical|address book|contact list|your contacts|social security|government[- ]issued|bank account|credit card|racial|ethnic|religio\w*|sexual|political|genetic|call logs?|text messages|voice recordings?)`), "collect", "gather", "obtain", "receive", "record", "access"),
			// What is collected, by the verb and the data it names; and what
			// the user provides. Two rules so that each runs only on sentences
			// with its words: one pattern of both cost a 10,000-word policy 4 ms.
			needsBoth(r(SeverityNeutral, true, strongCollection, `\b(collect|gather|obtain|receive|record|log|ask (you )?for|request)\w*\b[^.;]{0,80}\b(your )?(name|e-?mail( address)?|phone( number)?|postal address|date of birth|birth ?date|age|gender|ip address(es)?|device (id|identifiers?|information|type)|browser (type|information)|operating system|payment (information|details|card)|billing (information|address)|usernames?|passwords?|profile (information|picture|photo)|photos?|location)\b|\b(name|e-?mail( address)?|phone number|date of birth|ip address|device identifiers?|payment information)\b[^.;]{0,80}\b(we|that we|which we) (collect|gather|obtain|receive|record)`),
				[]string{"collect", "gather", "obtain", "receive", "record", "log", "ask", "request"},
				[]string{"name", "mail", "phone", "postal address", "birth", "age", "gender", "ip address", "device", "browser", "operating system", "payment", "billing", "username", "password", "profile", "photo", "location"}),
			needs(r(SeverityNeutral, true, strongCollection, `\b(information|data|details) (that |which )?you (provide|give|submit|enter|share with us|send us|upload)\b|\bwhen you (register|sign up|create an account|subscribe|make a purchase|contact us)\b[^.;]{0,60}\b(we (ask|collect|receive|need|request)|you (provide|give|enter))`), "you provide", "you give", "you submit", "you enter", "you share with us", "you send us", "you upload", "when you"),
			// The ways policies say what they collect, from whom and what
			// for, without naming a data type (GUIDELINES.md under
			// data_collection), one rule each, tried only on sentences with
			// its words (one alternation of them all cost a 10,000-word
			// policy more than the rest of the privacy patterns): what the
			// information collected includes, what "we" receive when you do
			// something, data collected automatically and logs, "we obtain"
			// and "we gather", sources (third parties, partners), the CCPA's
			// categories, what the data is used for, purposes and legitimate
			// interests. Each kept its precision on the first labelled
			// batch; a company's name as the subject ("Acme collects"), the
			// passive ("data is processed"), legal bases and automated
			// decisions did not, and are left to the detector.
			needs(r(SeverityNeutral, true, strongCollection, `\b(information|data|details)\b (that |which )?(we|it) (collect|receive|obtain|gather)\w*\b[^.;]*\b(includes?|including|such as|consists?|comprises?)\b`), "includ", "such as", "consist", "compris"),
			needs(r(SeverityNeutral, true, strongCollection, `\bwhen you\b[^.;]*\b(we|us)\b (may )?(also )?(automatically )?(receive|collect|obtain|record|log|store|get|gather|process)\w*\b`), "when you"),
			needs(r(SeverityNeutral, true, strongCollection, `\b(automatically|passively) (collect|receiv|record|log|gather|obtain)\w*|\b(collected|received|recorded|logged|gathered) automatically\b|\b(log files?|server logs?|log data|usage data|device data|technical data)\b`), "automatically", "passively", "log", "usage data", "device data", "technical data"),
			// Cookies and similar storage the service sets itself are
			// first-party collection (GUIDELINES.md, round four).
			needs(r(SeverityNeutral, true, strongCollection, `\b(we|us|our (web ?sites?|sites?|services?|apps?|platform))\b[^.;]{0,40}\b(use|uses|using|place|places|set|sets|store|stores|employ\w*|deploy\w*)\b[^.;]{0,30}\b(cookies|local ?storage|similar technolog\w*|web beacons|pixels?|identifiers)\b`), "cookie", "storage", "similar technolog", "beacon", "pixel", "identifier"),
			needs(r(SeverityNeutral, true, strongCollection, `\bwe (may )?(also )?(obtain|gather)\w*\b`), "obtain", "gather"),
			needs(r(SeverityNeutral, true, strongCollection, `\b(receive|obtain|collect|gather)\w*\b[^.;]*\bfrom (third[- ]part\w+|(our |business |advertising |marketing )?partners|other sources|publicly available|public sources|social (media|networks?)|data brokers|service providers|affiliates|advertisers|payment processors?)\b`), "from "),
			needs(r(SeverityNeutral, true, strongCollection, `\b(commercial information|internet or (other )?electronic network activity|geolocation data|professional or employment|inferences drawn|sensory data|audio, electronic|protected classification)`), "commercial information", "electronic network", "geolocation data", "professional or employment", "inferences drawn", "sensory data", "audio, electronic", "protected classification"),
			needs(r(SeverityNeutral, true, strongCollection, `\bwe (may )?(also )?(use|process|analy[sz]e|utili[sz]e)\w* (your |this |the |such |that |personal |collected |the following )+(information|data|details)\b[^.;]{0,30}\b(to|for|in order)\b`), "we use", "we may", "we also", "we process", "we analy", "we utili"),
			needs(r(SeverityNeutral, true, strongCollection, `^purposes?( of (the )?processing)?:|\bart(icle|\.)? ?6\b|\blegitimate interests?\b`), "purpose", "art", "legitimate interest"),
			needs(r(SeverityNeutral, true, 0.6, `\b(we|us)\b[^.;]{0,50}\b(collect|gather|obtain|record)\w*\b|\b(information|data) (we|that we|which we) (collect|gather|obtain|receive)`), "collect", "gather", "obtain", "record", "receive"),
		}},
	{name: "retention", pre: []string{"retain", "retention", "keep", "kept", "store", "delet", "preserve", "erase"}, rules: []rule{
		r(SeverityGood, false, 0.7, `\b(delete|deletes|deleted|erase|erased|anonymi[sz]e\w*|destroy\w*)\b[^.;]*\b(within|after) \d+ (days|weeks|months)|\bno longer than (\d+|one|two|three|six|twelve) |\b(retain|keep|store)\w*\b[^.;]*\b(for|up to) (\d+|one|two|three|six|twelve|thirty|ninety) (days|weeks|months|years)\b`),
		r(SeverityBad, true, 0.75, `\bindefinitely\b|\bforever\b|\b(unlimited|indefinite|undefined|unspecified) (period|time|duration)\b|\bas long as we (want|wish|like|see fit|deem)|\beven after (you )?(have )?(delete|close|terminat|cancel|deactivat|stop)|\b(retain|keep|store|preserve)\w*\b[^.;]*\bafter (you )?(have )?(delete|close|terminat|deactivat|cancel)|\b(residual|backup) copies\b|\bpermanently (retain|store|keep)`),
		r(SeverityNeutral, true, 0.6, `\b(retain|retention|keep|kept)\w*\b[^.;]*\b(information|data)|\bas long as (is |it is )?(reasonably )?(necessary|needed|required)`),
	}},
	{name: "tracking", pre: []string{"cookie", "beacon", "pixel", "track", "fingerprint", "advertis", " ads", "analytics", "sdk", "software development", "similar technolog", "storage", "retarget", "remarket", "re-target", "re-market", "across", "cross", "tag manager", "consent management", "consent framework", "cmp", "tcf", "dnt", "gpc", "global privacy", "idfa", "aaid", "gaid", "mixpanel", "amplitude", "hotjar", "matomo", "piwik", "fullstory", "crazy", "quantcast", "comscore", "doubleclick", "criteo", "adform", "appsflyer", "taboola", "outbrain", "clarity"},
		need: statesTracking, rules: []rule{
			needs(r(SeverityBad, false, 0.75, `\b(do not|don't|does not|doesn't) (currently )?(respond|honou?r|recogni[sz]e)\w*\b[^.]{0,40}(do[- ]not[- ]track|dnt)`), "track", "dnt"),
			needs(r(SeverityGood, false, 0.75, `\b(honou?r|respect|respond to|recogni[sz]e)\w*\b[^.]{0,40}(do[- ]not[- ]track|global privacy control|\bgpc\b)|\b(not|never)\s+`+negGap+`(track|use (third[- ]party )?(cookies|tracking))|\bonly (use )?(strictly )?(necessary|essential) cookies|\b(not|never)\s+(\w+\s+){0,2}(use|allow|permit|serve)\b[^.;]*\b(cookies|trackers|tracking|analytics|advertis\w*)`), "honor", "honour", "respect", "respond", "recogni", "not", "never", "only"),
			needs(r(SeverityBad, true, 0.75, `\bthird[- ]party (cookies|advertis\w*|tracking|ad networks?|pixels?)|\b(targeted|interest[- ]based|behaviou?ral|personali[sz]ed|cross[- ]context) (advertis|ads)|\b(advertising|marketing|targeting) cookies\b|\bad networks?\b|\b(retarget|remarket)\w*|\bacross (other |different )?(websites|sites|apps|devices|services)\b|\bcross[- ](site|device)\b|\badvertising (id|identifiers?)\b|\bweb beacons?|\btracking pixels?|\bpixel tags?|\bfingerprinting\b|\bdevice fingerprints?`), "third", "advertis", "ads", "cookies", "ad network", "retarget", "remarket", "across", "cross", "beacon", "pixel", "fingerprint"),
			// Any word of tracking not negated, the need (statesTracking)
			// then checking the sentence states tracking: cheaper than
			// matching trackingTech itself on every candidate sentence.
			r(SeverityNeutral, true, 0.6, `\b(cookies?|analytics|advertis\w*|ads?|pixels?|beacons?|clear gifs?|tag manager|sdks?|software development kits?|fingerprint\w*|track\w*|dnt|gpc|global privacy control|retarget\w*|remarket\w*|re-target\w*|re-market\w*|across|cross[- ](site|device|context)|idfa|aaid|gaid|cmp|tcf|consent management|similar technolog\w*|local ?storage|web storage|mixpanel|amplitude|hotjar|matomo|piwik|fullstory|crazy ?egg|quantcast|comscore|doubleclick|criteo|adform|appsflyer|taboola|outbrain|clarity)\b`),
		}},
	{name: "children", pre: []string{"child", "minor", "under 1", "under the age", "parent", "coppa", "kids"},
		need: childrenRe.MatchString, rules: []rule{
			r(SeverityGood, false, 0.75, `\b(not|never)\s+`+negGap+`(knowingly )?(collect|solicit|direct\w*|intend\w*|market\w*|designed|target\w*)\b|n't\s+`+negGap+`knowingly|\b(delete|remove|erase)\w*\b[^.;]*\b(child|minor|under)|\bparental consent\b`),
			r(SeverityBad, true, 0.6, `\b(collect|gather|obtain)\w*\b[^.;]*\bfrom (children|minors|kids)\b`),
			r(SeverityNeutral, true, 0.55, `.`),
		}},
	{name: "international_transfer", pre: []string{"transfer", "countr", "outside", "abroad", "international", "border", "united states", "jurisdiction"}, rules: []rule{
		r(SeverityGood, false, 0.75, `\bstandard contractual clauses\b|\badequacy decisions?\b|\bbinding corporate rules\b|\bdata privacy framework\b|\bprivacy shield\b|\bappropriate safeguards\b`),
		r(SeverityBad, false, 0.7, `\b(may not|do not|does not|might not)\s+(have|provide|offer|afford)\b[^.;]*\b(same|equivalent|adequate|similar|comparable)\b[^.]{0,20}\bprotection|\bless protective\b|\bnot (be )?as protective\b`),
		r(SeverityNeutral, true, 0.6, `\b(transfer\w*|stor\w*|process\w*|hosted)\b[^.;]*\b(outside (of )?(your|the|its) (\w+ ){0,2}(country|countries|jurisdiction|region|eea|european|eu|uk|united kingdom|state|province)|abroad|other countries|countries other|another country|different country|internationally|across (national )?borders|cross-border|in the united states|to the united states)`),
	}},
	{name: "user_rights", pre: []string{"right", "request", "delet", "access", "opt", "unsubscribe", "withdraw", "correct", "portab", "copy", "object", "restrict", "erase"}, rules: []rule{
		r(SeverityBad, false, 0.7, `\b(cannot|can't|can not|unable to|not be able to|no way to)\s+`+negGap+`(delete|remove|access|correct|opt[- ]out|withdraw)\b`),
		// A right, a request, an opt-out, and the other ways to control
		// data, one rule each so that each runs only on sentences with its
		// words (as one alternation it was a tenth of a policy's privacy patterns).
		// The company reserving a right is none of them.
		except(needs(r(SeverityGood, true, 0.75, `\bright (to|of) (\w+ ){0,3}(access|delet\w*|erasure|rectif\w*|correct\w*|portab\w*|object|restrict\w*|opt[- ]out|withdraw|know|be forgotten|request)`), "right "), companyRight),
		except(needs(r(SeverityGood, true, 0.75, `\b(request|ask)\w* (\w+ ){0,3}(access to|deletion|delete|erase|erasure|a copy|correct|correction|export)`), "request", "ask"), companyRight),
		except(needs(r(SeverityGood, true, 0.75, `\bopt[- ]?out\b[^.;]*\b(marketing|e-?mails?|communications|data|information|sharing|sale|advertis\w*|cookies|tracking|personali\w*|profiling|newsletters?)\b|\b(marketing|e-?mails?|communications|sharing|sale|advertis\w*|cookies|tracking|personali\w*|profiling|newsletters?)\b[^.;]*\bopt[- ]?out\b`), "opt"), companyRight),
		except(needs(r(SeverityGood, true, 0.75, `\b(delete|close|deactivate) your (account|data|information|personal)|\bunsubscribe\b|\bwithdraw (your )?consent\b|\bdata portability\b|\b(download|export)\w* (a copy of )?your (data|information|content)|\bdo not sell or share my`), "delete your", "close your", "deactivate your", "unsubscribe", "withdraw", "portability", "download", "export", "do not sell or share my"), companyRight),
	}},
	{name: "security", pre: []string{"secur", "encrypt", "ssl", "tls", "safeguard", "breach", "protect", "two-factor", "multi-factor", "2fa", "hash", "unauthori", "hack"}, rules: []rule{
		r(SeverityBad, false, 0.7, `\b(not|no)\s+(be )?(responsible|liable)\b[^.;]*\b(breach\w*|unauthori[sz]ed access|hack\w*|security|interception)`),
		// Safeguards of a transfer abroad are the transfer clause, not security measures.
		except(needs(r(SeverityGood, true, 0.75, `\bencrypt\w*|\bssl\b|\btls\b|\b(technical|organi[sz]ational|administrative|physical|reasonable|appropriate|industry[- ]standard|commercially reasonable)\b[^.]{0,30}\b(security )?(measures|safeguards|controls|precautions)|\baccess controls\b|\b(two|multi)[- ]factor\b|\b2fa\b|\bpseudonymi[sz]\w*|\b(notify|inform)\w*\b[^.;]*\b(data breach|security (breach|incident))`), "encrypt", "ssl", "tls", "measures", "safeguards", "controls", "precautions", "factor", "2fa", "pseudonymi", "notify", "inform"), `\b(standard contractual clauses|adequacy decisions?|data privacy framework|binding corporate rules|third countr\w+|art(icle|\.)? ?4[4-9])\b`),
		r(SeverityNeutral, false, 0.6, `\b(cannot|can't|can not|not|unable to)\s+(fully |completely |absolutely )?(guarantee|ensure|warrant|promise)\b[^.;]*\bsecur|\bno (method|system|transmission|security)\b[^.;]*\bsecure\b|\bnot (100%|completely|perfectly|fully|absolutely|entirely) secure`),
	}},
	{name: "policy_change_notice", pre: []string{"chang", "updat", "modif", "amend", "revis"}, rules: []rule{
		r(SeverityGood, false, 0.75, `\b(notify|notice|inform|email|e-mail|alert|tell)\w*\b[^.;]*\b(before|prior to|in advance|at least \d+ days)\b|\b(before|prior to)\b[^.;]*\b(take|takes|taking|become|becomes) effect\b[^.;]*\b(notify|notice|inform|email)|\b(material|significant|substantial)\b[^.]{0,40}\bchanges?\b[^.;]*\b(notify|notice|inform|email|prominent\w*)|\b(ask|obtain|seek|request)\w* (for )?your (express |explicit |prior )?consent`),
		r(SeverityBad, false, 0.7, `\bwithout (prior |advance |further |any )?(notice|notification|notifying)|\b(effective|take effect|takes effect)\b[^.]{0,30}\b(immediately|upon|when|as soon as)\b[^.]{0,30}\b(post|publish)|\bcontinued (use|access)\b[^.;]*\b(constitut|mean|signif|deem|accept|agree)|\b(check|review|visit|consult) (this|these|the|our) (page|policy|terms|privacy)[^.]{0,40}\b(periodically|regularly|frequently|from time to time|often)|\bresponsibility to (review|check)`),
		r(SeverityNeutral, false, 0.6, `\b(change|update|modif|amend|revis)\w*\b[^.]{0,40}\b(this|our|the|its) (privacy )?(policy|notice|statement)|\b(this|the|our|its) (privacy )?(policy|notice|statement)\b[^.]{0,40}\b(change|update|modif|amend|revis)`),
	}},
}

// mentions reports whether lower-cased text says what a sentence must say
// for the patterns of category cat to be tried (the category's need).
func mentions(cat, text string) bool {
	for _, pc := range privacyCats {
		if pc.name == cat {
			return pc.need == nil || pc.need(text)
		}
	}
	return true
}

// privacyHit is one category decided for one sentence.
type privacyHit struct {
	cat, sev string
	conf     float64
}

// privacyPre finds the categories whose pre-filter a sentence passes.
var privacyPre = func() *keywordIndex {
	lists := make([][]string, len(privacyCats))
	for i, pc := range privacyCats {
		lists[i] = pc.pre
	}
	return newKeywordIndex(lists)
}()

// privacyHits runs the privacy lexicons on one sentence; at most one hit per
// category.
func privacyHits(sentence string, dst []privacyHit) []privacyHit {
	low := strings.ToLower(quoteFolder.Replace(sentence))
	pre := privacyPre.find(low)
	for i, pc := range privacyCats {
		if pre&(1<<i) == 0 {
			continue
		}
		if pc.skip != nil && pc.skip.MatchString(low) {
			continue
		}
	rules:
		for _, ru := range pc.rules {
			if ru.gate != nil && !ru.gate(low) {
				continue
			}
			if ru.not != nil && ru.not.MatchString(low) {
				continue
			}
			for off, tries := 0, 0; off < len(low) && tries < 4; tries++ {
				loc := ru.re.FindStringIndex(low[off:])
				if loc == nil {
					break
				}
				if ru.neg && negatedAt(low, off+loc[0]) {
					off += max(loc[1], 1)
					continue
				}
				// The need is checked once a rule matched: it is the
				// dearer test, and most sentences match no rule.
				if pc.need == nil || pc.need(low) {
					dst = append(dst, privacyHit{pc.name, ru.sev, ru.conf})
				}
				break rules
			}
		}
	}
	return dst
}

// keywordIndex finds which of several keyword lists have a keyword in a
// text, in one pass over it: the privacy categories' pre-filters are 150
// keywords, and a strings.Contains each cost a policy more than most of the
// patterns they spare. Keywords are indexed by their first byte.
type keywordIndex [256][]keyword

type keyword struct {
	s    string
	mask uint32 // bit i: the keyword is in list i
}

func newKeywordIndex(lists [][]string) *keywordIndex {
	if len(lists) > 32 {
		panic("keywordIndex: more than 32 lists")
	}
	x := new(keywordIndex)
	for i, l := range lists {
		for _, kw := range l {
			b := kw[0]
			j := slices.IndexFunc(x[b], func(k keyword) bool { return k.s == kw })
			if j < 0 {
				x[b] = append(x[b], keyword{s: kw})
				j = len(x[b]) - 1
			}
			x[b][j].mask |= 1 << i
		}
	}
	return x
}

// find returns the lists with a keyword in s, bit i for list i.
func (x *keywordIndex) find(s string) uint32 {
	var m uint32
	for i := 0; i < len(s); i++ {
		for _, k := range x[s[i]] {
			// the second byte first: most candidates fail there
			if m&k.mask != k.mask && len(s)-i >= len(k.s) && (len(k.s) < 2 || s[i+1] == k.s[1]) && s[i:i+len(k.s)] == k.s {
				m |= k.mask
			}
		}
	}
	return m
}

// gatedPattern is a pattern tried only on text containing one of kw.
type gatedPattern struct {
	kw []string
	re *pattern
}

// matchesAny reports whether low matches one of ps.
func matchesAny(low string, ps []gatedPattern) bool {
	for _, p := range ps {
		if containsAny(low, p.kw) && p.re.MatchString(low) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, p := range subs {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// negatedAt reports whether a negation word occurs within the few words
// before position i (same clause).
func negatedAt(low string, i int) bool {
	j := max(i-60, 0)
	w := low[j:i]
	if locs := clauseBreakRe.FindAllStringIndex(w, -1); len(locs) > 0 {
		w = w[locs[len(locs)-1][1]:]
	}
	return negationRe.MatchString(w)
}
