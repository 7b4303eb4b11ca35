package analyze

import (
	"strings"
)

// Sharing and sale: personal data sold unless the user opts out, or given
// to third parties for their own ends. The privacy categories data_sale
// and third_party_sharing, read per paragraph, have their patterns in
// privacy.go (privacyCats).

// Titles of the cases, as cases.tsv spells them.
const (
	titleSellUnlessOpt = "The service may sell your data unless you opt out"
	titleGivenThird    = "Your personal data is given to third parties"
)

// The rule cases, tried in weightyRules' order (weighty.go).
var (
	ruleSellUnlessOpt = ruleCase{info: weightyCase(titleSellUnlessOpt, SeverityBad, "data_sale"), needs: []string{"sell", "sold", "rent", "sale"}, match: sellsData, conf: 0.75, only: true}
	ruleGivenThird    = ruleCase{info: weightyCase(titleGivenThird, SeverityBad, "third_party_sharing"), needs: []string{"shar", "disclos", "provid", "transfer", "available", "giv", "pass"}, kw: []string{"third", "partner", "advertis", "affiliat", "compan", "broker", "sponsor", "network", "marketing"}, match: sharedWithThirdParties, conf: 0.7, only: true, keepOthers: true}
)

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
