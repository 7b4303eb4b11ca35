package analyze

import (
	"slices"
	"strings"
)

// Polarity: which way a sentence points once its negation is read in its
// scope. The models and most rules read words, and the words of a promise
// not to do something are those of doing it: "we will never require you
// to waive your moral rights" holds every word of the waiver. A negation
// denies the clause it governs when the verb it governs is the risky act
// itself (sell, share, terminate, change, use), an imposition on the user
// (require, ask, force) or a limit on the user's rights or on the
// service's liability (limit, exclude, waive): then the clause states the
// opposite of the risk. It leaves the risk standing when the verb is one
// of the service's duties or of its liability ("we will not be liable",
// "we do not refund", "we are under no obligation to notify you", "shall
// not exceed the fees you paid"), or when what is limited is the
// service's own right ("nothing limits our right to terminate").
//
// A sentence's bad findings are held to the clauses no negation denies:
// the sentence less its denied clauses is read again, and a bad finding
// stays only where that reading finds its category bad too ("we do not
// sell your data, but we share it with advertisers" keeps the sharing).
// A sentence with a bad finding yields a good one only where its main
// clauses do: "we retain your data indefinitely, even after you delete
// your account" names the user's deletion as the time the retention
// outlasts, not as the user's right.

// polarity of the word a negation governs.
const (
	polUnknown = iota
	polProtective
	polRisk
)

var (
	// phrases whose negation negates nothing the clause states
	notNegationRe = mustPattern(`\b(but )?not limited to\b|\bwithout limitation\b|\bwhether or not\b|\bif not\b|\bnot only\b|\bdo[- ]not[- ]track\b|\bdo not (sell|share)( (or|and) (sell|share))?( my| your| personal)\b|\b(no|not) (later|more|less|fewer|longer|sooner) than\b|\bno matter\b|\bnon-\w+|\bnot (prohibited|permitted|allowed|precluded|forbidden) (by|under)\b|\b(or|for) no reason\b|\bwith or without\b`)
	// a coordinated clause with its own subject or opening: the scope a
	// negation before it cannot reach
	scopeBreakRe = mustPattern(`;|,? \bbut\b|,? \b(?:and|while|whereas|or|yet)(?: also| further| in addition)?,? (we|you|the company|the service|it|they|no|nothing|none|neither|our|your|this|these|such|users?|third|if|when|where|unless|once|even)\b`)
	// the user's act that a clause's practice outlasts or follows: "even
	// after you delete your account", "once you close it"
	userEventRe = mustPattern(`\b(even after|after|once|even if|even though|even when)( that)? (you|the user|users|a user|the member|members) (\w+ ){0,3}?(delete|deletes|deleted|close|closes|closed|cancel|cancels|cancelled|canceled|terminate|terminates|terminated|deactivate|deactivates|deactivated|remove|removes|removed|leave|leaves|erase|erases)\b[^,;]*`)
	// "copies remain after you delete", "even after": the deletion the
	// user asks for, against which not deleting is the risk
	// the user's right to have it deleted: "we cannot delete your data
	// when these rights are limited by law"
	deletionRightRe = mustPattern(`\b(your|these|such|the) rights?\b|\brequests?\b`)
	afterDeletionRe = mustPattern(`\b(after|once|when|even if|even though|though) (you|the user|users|a user) (\w+ ){0,3}?(delete|deletes|deleted|close|closes|closed|remove|removes|removed|deactivate|deactivates|deactivated|cancel|cancels|cancelled|canceled|request|requests|ask|asks)\b`)
	// what a negated limit leaves to the service: "nothing limits our
	// right to", "does not restrict the company's ability"
	ownRightRe = mustPattern(`^(\S+ ){0,3}?(our|its|the company's|the service's|us|ourselves|we) (\S+ ){0,2}?(rights?|ability|abilities|discretion|power|powers|remedies|option)\b`)
	// a negated "provide" is a promise only about the user's data ("we do
	// not provide your information to"), not about a refund or a warranty
	parenRe = mustPattern(`\([^()]*\)`)
	// the user's remedies: what a service that does not "allow" them
	// refuses the user
	remedyRe       = mustPattern(`^(\S+ ){0,4}?(class|collective|representative|consolidated|claims?|actions?|proceedings?|jury|appeals?|refunds?|you|users?|cancellations?)\b`)
	providesDataRe = mustPattern(`^(\S+ ){0,4}?(data|information|details|identifiers|content)\b`)
)

// negCues: one of them is in every sentence whose polarity is read.
var negCues = []string{"not", "never", "n't", "no ", "nothing", "none", "neither", "nobody"}

// riskStems: a negated word starting with one of these leaves the risk
// standing: the service's liability, its duties to the user and what it
// owes or may fail to do.
var riskStems = []string{"liab", "responsib", "refund", "reimburs", "compensat", "respond", "honou", "honor", "guarant", "warrant", "oblig", "duty", "duties", "need", "notif", "inform", "tell", "warn", "endors", "control", "verif", "exceed", "able", "entitl", "accept", "assum", "undertak", "recogni", "support", "monitor", "review", "screen", "vet", "check", "return", "restor", "recover", "backup", "ensure", "insur", "owe", "pay", "offer", "represent", "uninterrupt", "error", "accura", "secur", "reliab", "complet", "timely", "availab", "fit", "suitab", "intend"}

// riskPairs: two words whose negation leaves the risk standing ("we do
// not have to give a reason", "we will not give you notice").
var riskPairs = map[string]bool{"have to": true, "has to": true, "give you": true, "grant you": true, "provide you": true, "back up": true}

// nonVerbs start like a protective verb and are none ("users", "bank").
var nonVerbs = map[string]bool{"user": true, "users": true, "useful": true, "bank": true, "banking": true, "password": true, "passwords": true, "closely": true, "sensitive": true, "basis": true, "basic": true, "readily": true, "licensor": true, "licensors": true, "licensee": true, "licensees": true, "sellers": true, "storage": true, "information": true, "informational": true, "payment": true, "payments": true, "controller": true, "controllers": true, "security": true, "completely": true, "checkout": true}

// protectiveStems: a negated word starting with one of these forgoes a
// risky act, imposes nothing on the user or limits none of the user's
// rights.
var protectiveStems = []string{"sell", "sold", "rent", "trade", "shar", "disclos", "transfer", "giv", "gave", "pass", "track", "collect", "use", "usin", "combin", "profil", "target", "monetiz", "monetis", "scan", "read", "listen", "access", "keep", "kept", "retain", "stor", "clos", "terminat", "suspend", "delet", "remov", "disabl", "ban", "block", "restrict", "limit", "exclud", "waiv", "affect", "prejudic", "requir", "ask", "forc", "compel", "tak", "took", "grant", "licens", "licenc", "sublicens", "enforc", "rely", "relies", "base", "chang", "modif", "amend", "alter", "increas", "charg", "renew", "discontinu", "censor", "assign", "allow", "permit", "let", "build", "creat", "infer", "process", "identif", "publish", "display", "show", "send", "sent", "contact", "spam", "bind", "obtain", "erase", "train", "analy", "provid", "mak", "put", "place", "install"}

// limitStems are the protective verbs that limit a right: negated, they
// leave the service's own right whole ("nothing limits our right").
var limitStems = []string{"limit", "restrict", "affect", "prejudic", "exclud", "waiv"}

// participles of imposition: "you are not required to" frees the user,
// "we are not required to" frees the service.
var impositionParticiples = map[string]bool{"required": true, "obliged": true, "obligated": true, "bound": true, "forced": true, "compelled": true, "expected": true}

// holdPolarity drops the bad findings a negation denies and the good
// findings that only a risk's condition names, among the hits of one
// sentence s (hits[n:]).
func (e *Engine) holdPolarity(hits []hit, n int, s string, privacyDoc bool) []hit {
	bad, good := false, false
	for _, h := range hits[n:] {
		bad = bad || h.sev == SeverityBad || h.sev == SeverityBlocker
		good = good || h.sev == SeverityGood
	}
	if !bad {
		if good {
			return e.butRisk(hits, n, s, privacyDoc)
		}
		return hits
	}
	low := strings.ToLower(quoteFolder.Replace(s))
	isBad := func(h hit) bool { return h.sev == SeverityBad || h.sev == SeverityBlocker }
	if instruction(low) {
		return unrisked(hits, n, optOutPurposeRe.MatchString(low))
	}
	if containsAny(low, negCues) {
		if rest, ok := undenied(low); ok {
			hits = heldTo(hits, n, e.readAgain(hits[n].sent, rest, privacyDoc), isBad)
		}
	}
	if !good || !slices.ContainsFunc(hits[n:], isBad) {
		return hits
	}
	if rd := ReadClause(s, nil); rd.Actor == ActorService && rd.Modality == ModRight && !rd.Negated && !userAskRe.MatchString(low) {
		// the service's right to delete or close ("we may delete your
		// account at any time") is not the user's right over their data
		hits = heldTo(hits, n, nil, func(h hit) bool { return h.sev == SeverityGood && h.cas < 0 && h.cat == "user_rights" })
	}
	if !userEventRe.MatchString(low) {
		return hits
	}
	// a good finding of a sentence whose main clause, read without the
	// user's act it outlasts, still states a risk
	again := e.readAgain(hits[n].sent, userEventRe.ReplaceAllString(low, ""), privacyDoc)
	if slices.ContainsFunc(again, isBad) {
		hits = heldTo(hits, n, again, func(h hit) bool { return h.sev == SeverityGood })
	}
	return hits
}

// noticeNegRe: a negation as a word ("notice" holds "not").
var noticeNegRe = mustPattern(`\b(not|never|no|none|nothing|cannot)\b|n't\b`)

// userAskRe: the user's request or choice, which makes the service's act
// the user's right ("we may delete your data at your request").
var userAskRe = mustPattern(`\b(request|requests|ask|asks|instruct\w*|at your (choice|option|direction)|you (can|may|have|choose|decide|tell))\b`)

// butRe: the "but" that takes back part of a protection ("we delete your
// notes within 30 days, but we may retain backups indefinitely").
var butRe = mustPattern(`,? but (we|the company|the service|our|your|it|they|copies|backups|some)\b`)

// butRisk adds the risks of a protection's "but" clause, read alone, to the
// hits of sentence s (hits[n:], good and no risk): the patterns give a
// category one finding a sentence, and the protection before the "but"
// hides the risk after it. One clause counts once, as its risk (Judge).
func (e *Engine) butRisk(hits []hit, n int, s string, privacyDoc bool) []hit {
	low := strings.ToLower(quoteFolder.Replace(s))
	loc := butRe.FindStringSubmatchIndex(low)
	// a negated "but" clause ("but we never share it") is left to the
	// reading of the whole sentence
	if loc == nil || noticeNegRe.MatchString(low[loc[2]:]) {
		return hits
	}
	for _, h := range e.readAgain(hits[n].sent, low[loc[2]:], privacyDoc) {
		if (h.sev == SeverityBad || h.sev == SeverityBlocker) && !hasHit(hits[n:], h.cat, h.sev) {
			hits = append(hits, h)
		}
	}
	return hits
}

// readAgain is the hits of rest, part of sentence i, read as a sentence.
func (e *Engine) readAgain(i int, rest string, privacyDoc bool) []hit {
	if strings.IndexFunc(rest, isWordRune) < 0 {
		return nil
	}
	again, _, _ := e.hitsOf(nil, i, rest, appendTokens(nil, rest), privacyDoc, nil, nil)
	return again
}

// heldTo drops the hits of hits[n:] that held selects and that again (a
// reading of part of their sentence) does not give with their category
// and severity.
func heldTo(hits []hit, n int, again []hit, held func(hit) bool) []hit {
	out := hits[:n]
	for _, h := range hits[n:] {
		if held(h) && !hasHit(again, h.cat, h.sev) {
			continue
		}
		out = append(out, h)
	}
	return out
}

func hasHit(hits []hit, cat, sev string) bool {
	for _, h := range hits {
		if h.cat == cat && (h.sev == sev || h.sev != SeverityGood && sev != SeverityGood && h.sev != SeverityNeutral && sev != SeverityNeutral) {
			return true
		}
	}
	return false
}

// undenied returns the clauses of low (a lower-cased sentence) that no
// negation denies, joined, and whether any clause was denied.
func undenied(low string) (string, bool) {
	low = notNegationRe.ReplaceAllString(low, " ")
	// an aside in parentheses ("irrevocable (as long as your account is
	// not terminated)") qualifies the clause; it does not deny it
	low = parenRe.ReplaceAllString(low, " ")
	var kept []string
	denied := false
	start := 0
	locs := scopeBreakRe.FindAllStringSubmatchIndex(low, -1)
	for k := 0; k <= len(locs); k++ {
		end, next := len(low), len(low)
		if k < len(locs) {
			end = locs[k][0]
			next = locs[k][1]
			if locs[k][2] >= 0 {
				next = locs[k][2] // the clause starts at its subject
			}
		}
		cl := low[start:end]
		if deniedClause(cl, low) {
			denied = true
		} else {
			kept = append(kept, cl)
		}
		start = next
	}
	return strings.Join(kept, "; "), denied
}

// deniedClause: the first negation of clause cl that governs a word of
// known polarity governs a protective one. sentence is the whole
// sentence, which tells whether not deleting outlasts the user's deletion.
func deniedClause(cl, sentence string) bool {
	// a clause opening with "if", "unless", "to the extent" is subordinate
	// up to its main clause, which starts with "then" or a pronoun
	sub := false
	for i, seg := range strings.Split(cl, ",") {
		ws := strings.FieldsFunc(seg, func(r rune) bool { return !isWordRune(r) && r != '\'' })
		if len(ws) == 0 {
			continue
		}
		if i == 0 {
			sub = subordinators[ws[0]] || len(ws) > 2 && ws[0] == "to" && ws[1] == "the" && ws[2] == "extent"
		} else if sub && mainOpeners[ws[0]] {
			sub = false
		}
		if sub {
			continue
		}
		if pol := segmentPolarity(ws, sentence); pol != polUnknown {
			return pol == polProtective
		}
	}
	return false
}

// subordinators open a clause that is not the sentence's statement: a
// negation inside it ("if you have not used the service", "to the extent
// that liability cannot be limited", "disputes that are not subject to
// arbitration") conditions or qualifies the clause, it does not deny it.
var subordinators = map[string]bool{"if": true, "unless": true, "when": true, "whenever": true, "where": true, "wherever": true, "that": true, "which": true, "who": true, "whom": true, "whose": true, "because": true, "since": true, "until": true, "whether": true, "although": true, "though": true, "once": true, "while": true, "whereas": true}

// mainOpeners start the main clause after a leading subordinate one.
var mainOpeners = map[string]bool{"then": true, "we": true, "you": true, "it": true, "they": true, "nothing": true, "no": true, "neither": true}

// complementVerbs take a "that" clause which is the statement itself
// ("please note that we will not sell", "you agree that we may").
var complementVerbs = map[string]bool{"note": true, "agree": true, "agrees": true, "acknowledge": true, "acknowledges": true, "understand": true, "understands": true, "aware": true, "assured": true, "promise": true, "promises": true, "commit": true, "commits": true}

// segmentPolarity: the polarity of the first negation of one
// comma-delimited segment ws (outside a subordinate clause) that governs
// a word of known polarity.
func segmentPolarity(ws []string, sentence string) int {
	for k, w := range ws {
		if subordinators[w] && !(w == "that" && k > 0 && complementVerbs[ws[k-1]]) {
			return polUnknown
		}
		if w == "long" && k > 0 && ws[k-1] == "as" {
			return polUnknown // "as long as", "so long as"
		}
		subject := false // the negation opens a subject or an inverted clause
		switch {
		case w == "not" && (k == 0 || !auxiliaries[ws[k-1]] && !notBefore[ws[k-1]]):
			// "the party not affected", "proceedings not subject to": a
			// qualifier of a noun, not a clause's negation
			continue
		case w == "not" && k > 1 && ws[k-1] == "us" && userAsks[ws[k-2]]:
			// "you may tell us not to sell": the user's request
			continue
		case w == "not" || w == "never" || w == "cannot" || strings.HasSuffix(w, "n't"):
		case w == "nothing" || w == "none" || w == "neither" || w == "nobody":
			subject = true
		case w == "no" && (k == 0 || ws[k-1] == "in" || ws[k-1] == "under" || ws[k-1] == "at"):
			// "no part of this agreement limits", "under no circumstances
			// will we"
			subject = true
		case w == "no":
			// a determiner: "we have no obligation", "we share no data"
			if k+1 < len(ws) && !nonVerbs[ws[k+1]] && stemIn(ws[k+1], riskStems) {
				return polRisk
			}
			continue
		default:
			continue
		}
		if k > 0 && (ws[k-1] == "should" || ws[k-1] == "must") || lawBefore(ws, k) {
			// advice or a rule ("should not be relied upon", "must not
			// be used"), or the law's negation ("some jurisdictions do
			// not allow the exclusion"): no promise of the service
			return polRisk
		}
		if pol := governed(ws, k, subject, sentence); pol != polUnknown {
			return pol
		}
	}
	return polUnknown
}

// skipWords stand between a negation and the verb it governs: auxiliaries,
// adverbs, an inverted subject ("will the company use").
var skipWords = map[string]bool{"be": true, "been": true, "being": true, "to": true, "ever": true, "knowingly": true, "intentionally": true, "directly": true, "indirectly": true, "currently": true, "otherwise": true, "also": true, "further": true, "ourselves": true, "then": true, "generally": true, "actively": true, "specifically": true, "voluntarily": true, "in": true, "any": true, "way": true, "will": true, "shall": true, "would": true, "may": true, "can": true, "could": true, "do": true, "does": true, "did": true, "is": true, "are": true, "was": true, "were": true, "have": true, "has": true, "had": true, "try": true, "attempt": true, "seek": true, "we": true, "it": true, "the": true, "company": true, "service": true, "services": true, "our": true, "us": true, "or": true, "and": true}

// notBefore may stand between an auxiliary and "not", or before "not"
// in an infinitive ("agree not to", "choose not to").
var notBefore = map[string]bool{"to": true, "also": true, "further": true, "currently": true, "generally": true, "still": true, "hereby": true, "certainly": true, "simply": true, "might": true, "need": true, "us": true, "agree": true}

// userAsks: the user's request of the service ("ask us not to").
var userAsks = map[string]bool{"tell": true, "ask": true, "direct": true, "instruct": true, "request": true, "require": true}

// auxiliaries end the subject a negation opens ("no personal data is
// sold", "in no event shall").
var auxiliaries = map[string]bool{"will": true, "shall": true, "would": true, "may": true, "can": true, "could": true, "should": true, "must": true, "do": true, "does": true, "is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "be": true, "had": true, "did": true, "might": true, "am": true, "been": true}

// governed is the polarity of the verb the negation at ws[k] governs: the
// first word after it that is no auxiliary or adverb, or, after a negated
// subject ("no part of these terms limits"), after the subject's end.
func governed(ws []string, k int, subject bool, sentence string) int {
	j := k + 1
	if subject {
		for ; j < len(ws) && j <= k+14; j++ {
			if auxiliaries[ws[j]] || verbS(ws[j]) {
				break
			}
		}
		if j >= len(ws) || j > k+14 {
			return polUnknown
		}
		if auxiliaries[ws[j]] {
			j++
			if inverted := k > 0 && (ws[k-1] == "in" || ws[k-1] == "under" || ws[k-1] == "at"); inverted && j < len(ws) && !skipWords[ws[j]] {
				j++ // the subject of "in no event shall Acme be liable"
			}
		}
	}
	for ; j < len(ws) && j <= k+16; j++ {
		if skipWords[ws[j]] && !riskPairs[ws[j]+" "+next(ws, j)] {
			continue
		}
		return polarityOf(ws, k, j, sentence)
	}
	return polUnknown
}

// verbS: a verb in -s of known polarity ("limits", "requires"), not a
// noun in -s ("licensors", "providers").
func verbS(w string) bool {
	if !strings.HasSuffix(w, "s") || nonVerbs[w] || !(stemIn(w, protectiveStems) || stemIn(w, riskStems)) {
		return false
	}
	for _, n := range []string{"ors", "ers", "ees", "ions", "ties", "ss", "ls"} {
		if strings.HasSuffix(w, n) {
			return false
		}
	}
	return true
}

// polarityOf is the polarity of ws[j], the verb the negation at ws[k]
// governs.
func polarityOf(ws []string, k, j int, sentence string) int {
	w := ws[j]
	tail := strings.Join(ws[j+1:min(len(ws), j+8)], " ")
	switch {
	case !nonVerbs[w] && stemIn(w, riskStems) || riskPairs[w+" "+next(ws, j)]:
		return polRisk
	case impositionParticiples[w]:
		if userBefore(ws, k) {
			return polProtective // "you are not required to arbitrate"
		}
		return polRisk // "we are not required to notify you"
	case (w == "allowed" || w == "permitted") && !weBefore(ws, k):
		return polRisk // "class actions are not allowed": a prohibition
	case nonVerbs[w] || strings.HasSuffix(w, "'s") || !stemIn(w, protectiveStems):
		return polUnknown
	case userBefore(ws, k):
		// "you will not use the service to track others": a prohibition
		// on the user, which denies no risk of the service's
		return polRisk
	case stemIn(w, limitStems):
		if ownRightRe.MatchString(tail) {
			return polRisk // "nothing limits our right to terminate"
		}
		return polProtective // "nothing limits our liability for"
	case (strings.HasPrefix(w, "delet") || strings.HasPrefix(w, "remov") || strings.HasPrefix(w, "erase")) && (afterDeletionRe.MatchString(sentence) || deletionRightRe.MatchString(sentence)):
		return polRisk // not deleting what the user deleted is retention
	case (strings.HasPrefix(w, "allow") || strings.HasPrefix(w, "permit") || w == "let" || w == "lets") && remedyRe.MatchString(tail):
		return polRisk // "does not allow class arbitrations": the user's remedy refused
	case strings.HasPrefix(w, "provid") && !providesDataRe.MatchString(tail):
		return polUnknown
	case riskObject(ws[j+1:]):
		return polRisk // "we do not give any warranty"
	}
	return polProtective
}

// riskObject: what a negated verb governs is a duty or a warranty ("do
// not give or make any warranty", "will not place us under any
// obligation"), up to a "without" or "unless" that opens a condition.
func riskObject(ws []string) bool {
	for j, w := range ws[:min(len(ws), 8)] {
		switch w {
		case "without", "unless", "except", "before", "until":
			return false
		}
		if !nonVerbs[w] && stemIn(w, riskStems) || riskPairs[w+" "+next(ws, j)] {
			return true
		}
	}
	return false
}

// weBefore: the service is the subject of the negation at ws[k].
func weBefore(ws []string, k int) bool {
	for j := k - 1; j >= 0 && j >= k-3; j-- {
		if ws[j] == "we" {
			return true
		}
	}
	return false
}

// lawSubjects name a party whose negation promises nothing for the
// service: the law, other jurisdictions, third parties.
var lawSubjects = map[string]bool{"jurisdictions": true, "states": true, "countries": true, "laws": true, "law": true, "courts": true, "provinces": true, "they": true, "parties": true, "partners": true, "advertisers": true, "sites": true, "websites": true, "applications": true, "apps": true, "providers": true}

// lawBefore: the negation at ws[k] follows one of lawSubjects, through its
// auxiliaries ("some states do not allow").
func lawBefore(ws []string, k int) bool {
	for j := k - 1; j >= 0 && j >= k-3; j-- {
		switch {
		case lawSubjects[ws[j]]:
			return true
		case auxiliaries[ws[j]]:
			continue
		}
		return false
	}
	return false
}

// userBefore: the user is the subject the negation at ws[k] follows
// ("you will not", "users may not", "you agree not to").
func userBefore(ws []string, k int) bool {
	for j := k - 1; j >= 0 && j >= k-4; j-- {
		switch ws[j] {
		case "you", "users", "user", "members", "customers":
			return true
		case "will", "shall", "may", "must", "do", "does", "can", "agree", "agrees", "to", "also", "further", "should", "are", "is", "hereby", "opt", "choose", "elect", "decide", "prefer", "wish":
			continue
		}
		return false
	}
	return false
}

func next(ws []string, j int) string {
	if j+1 < len(ws) {
		return ws[j+1]
	}
	return ""
}

func stemIn(w string, stems []string) bool {
	for _, s := range stems {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}
