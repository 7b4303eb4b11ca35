package analyze

// Tracking: advertising built on the user's data, by the service or by
// third parties, and the user followed across other websites and apps.
// The privacy category tracking, read per paragraph, has its patterns in
// privacy.go (privacyCats).

// Titles of the cases, as cases.tsv spells them.
const (
	titleTargetedAds = "The service uses your personal data to employ targeted third-party advertising"
	titleAds         = "The service uses your personal data for advertising"
	titleOtherSites  = "This service tracks you on other websites"
)

// The rule cases, tried in weightyRules' order (weighty.go).
var (
	ruleTargetedAds = ruleCase{info: weightyCase(titleTargetedAds, SeverityBad, "tracking"), needs: []string{"advertis", "ads", "marketing", "iba", "oba"}, match: targetedThirdPartyAds, conf: 0.75, only: true, group: "ads", keepOthers: true}
	ruleAds         = ruleCase{info: weightyCase(titleAds, SeverityBad, "tracking"), needs: []string{"advertis", "ads"}, match: personalisedAds, conf: 0.7, only: true, group: "ads", keepOthers: true}
	ruleOtherSites  = ruleCase{info: weightyCase(titleOtherSites, SeverityBad, "tracking"), needs: []string{"across", "other", "third", "cross", "off", "different", "non-affiliated", "unaffiliated"}, kw: []string{"track", "collect", "monitor", "follow", "observ", "record", "gather", "log", "about"}, match: tracksOnOtherSites, conf: 0.75, keepOthers: true}
)

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
