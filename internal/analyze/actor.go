package analyze

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Actor is who a clause binds or who does what it is about.
type Actor uint8

// The actors of a clause, as the case labels' guidelines name them.
const (
	ActorNone Actor = iota
	ActorService
	ActorUser
	ActorThirdParty
)

func (a Actor) String() string {
	return [...]string{"none", "service", "user", "third_party"}[a]
}

// Modality is how a clause binds its actor.
type Modality uint8

// The modalities of a clause: a plain statement of what is done, a right
// the actor takes ("we may", "we reserve the right"), a commitment it makes
// ("we will notify you") and an obligation or prohibition placed on it
// ("you must", "you may not", "you agree to").
const (
	ModStatement Modality = iota
	ModRight
	ModCommitment
	ModObligation
)

func (m Modality) String() string {
	return [...]string{"statement", "right", "commitment", "obligation"}[m]
}

// Reading is who a clause binds, how, and whether its main verb is negated.
type Reading struct {
	Actor    Actor
	Modality Modality
	Negated  bool
}

// A prohibition is a negated obligation, and "you may not" is one too.
func (r Reading) prohibition() bool {
	return r.Negated && (r.Modality == ModObligation || r.Modality == ModRight && r.Actor == ActorUser)
}

var (
	// Leading subordinate clauses and framings whose subject is not the
	// clause's: "If you breach these terms, we may ...", "By using the
	// service, you agree ...", "To the extent permitted by law, ...". The
	// reading starts after their comma.
	leadClauseRe = mustPattern(`^(if|when|whenever|where|wherever|unless|until|by|upon|on|in|under|at|for|with|within|without|during|following|prior to|pursuant to|according to|due to|given|based on|once|before|after|although|though|while|because|since|as|to|subject to|notwithstanding|except|regarding|depending on|further(more)?|additionally|also|however|accordingly|therefore|thus|hence|similarly|likewise|otherwise|finally|instead|rather|like|such as|in the meantime|rest assured|in doing so|at any time|from time to time|in our (sole )?discretion)\b[^,;:]{0,200}[,;:] `)
	// "Please note that", "rest assured that", "it is important to note
	// that": the clause after "that" is the sentence's.
	noteThatRe = mustPattern(`^(this means|(please )?(note|be aware|understand|remember|keep in mind|bear in mind)|rest assured|it is (important|possible) (to note )?|you should (know|be aware)|we (want|would like) (you )?to (let you know|inform you|remind you)) ?,?( however,?)? that `)
	// "You agree that we may ...", "you acknowledge and agree that the
	// service ...": the clause after "that" says who acts.
	youAgreeThatRe = mustPattern(`^(you|the user|users?) (hereby |expressly |further |also |specifically |irrevocably |understand,? )*(acknowledges?|agrees?|understands?|accepts?|consents?|recognises?|recognizes?)( and (agrees?|acknowledges?|accepts?|understands?|consents?))? that `)
	// "It is your responsibility to", "it's the user's duty to".
	yourDutyRe = mustPattern(`^it('s| is) (your|the user's|each user's) (sole |own )?(responsibility|obligation|duty)\b`)
	// "You consent to our sharing", "you authorise us to": the user lets
	// the service act.
	youLetUsRe = mustPattern(`^(you|users?) (hereby |expressly |also )*(consents?|authori[sz]es?|permits?|allows?|instructs?|grants? us permission|give us (permission|the right)) (to (us|our|the company|the service)\b|us\b|our\b|the (company|service)\b)`)

	// Passives about the user's things with no agent other than the
	// service: "your account may be terminated", "your data may be shared".
	passiveRe = mustPattern(`^([\w'.,-]+ ){1,8}?(may|might|can|could|will|would|shall|must|should|is|are|was|were|has|have|cannot)( not| never| only| also| then| \w+ly)? (be |been |being )?(not |never |only |also )?(\w+(ed|en|wn|ld|nt|ne|id|ught|ept)|made|set|put|run|hit|cut|shut|read|bound)\b`)
	// A passive about the document or the law binds no one: "these Terms
	// are governed by", "this policy is incorporated into".
	lawPassiveRe = mustPattern(`^((any|the|such|that|this|each|no) )?(provisions?|arbitrations?|hearings?|proceedings?)\b|\b(governed|construed|interpreted|deemed|incorporated|enforced|severed|titled|intended|designed|written|drafted)\b|^(the )?(laws?|courts?)\b`)

	prohibitedRe = mustPattern(`^(is|are|will be|shall be)( strictly| expressly)? (prohibited|forbidden|not (permitted|allowed|authori[sz]ed))\b`)
	// A disclaimer or a possibility is a statement whatever its modal.
	disclaimerRe = mustPattern(`^(\w+ ){0,4}?(liable|responsible|guarantee|guarantees|warrant|warrants|contain|contains|include|includes|vary|differ|apply)\b|^(cannot|can't|can n't|can not)\b`)
	// one of disclaimerWords is in every verb group disclaimerRe reads
	disclaimerWords = []string{"liable", "responsib", "guarantee", "warrant", "contain", "include", "vary", "differ", "apply", "can"}
	mayBeAbleRe     = mustPattern(`^(may|might|will|would)( not| no longer)? be able\b`)
	mayBeRequiredRe = mustPattern(`^(may|might|can|could) (also )?be (required|obliged|obligated|asked|expected)\b`)
	// "by you", "by other users", "by advertisers": a passive whose agent
	// is not the service.
	passiveAgentRe = mustPattern(`\bby (you|users?|other users|members|third[- ]part\w*|advertisers|our partners|partners|the (user|member|customer)s?|law|applicable law)\b`)
	// The document as the subject: "these Terms", "this Privacy Policy",
	// "the Agreement", "this section".
	documentSubjectRe = mustPattern(`^(these|this|the|such) (terms( of (use|service))?( and conditions)?|conditions|agreements?|(privacy |cookie )?(policy|policies|notice|statement)|section|provisions?|dpa|eula)( \w+){0,2}? `)

	noEventRe = mustPattern(`^(in no event|under no circumstances|in no case) (shall|will|would|may|is|are|does) `)

	haveRightRe = mustPattern(`^((a|the|certain|several|various|some|additional|the following|other|many) )?(rights?|options?|choices?|ability)\b`)

	negWordRe = mustPattern(`^(not|never|no longer|n't|cannot|can't|won't|shan't|don't|doesn't|didn't|isn't|aren't|wouldn't|shouldn't|mustn't)$`)
)

// serviceSubjects, userSubjects and thirdSubjects are the subjects that
// name each actor, longest first where one is a prefix of another.
var (
	serviceSubjects = []string{"we", "us", "our company", "our service", "our services", "the service", "the services", "the company", "the site", "the website", "the platform", "the app", "the application", "the provider", "the operator", "the controller", "the licensor", "this service", "this website", "this site", "it", "either party", "each party", "both parties", "neither party"}
	userSubjects    = []string{"you", "users", "user", "the user", "the users", "members", "member", "the member", "customers", "customer", "the customer", "subscribers", "subscriber", "visitors", "the visitor", "account holders", "participants", "buyers", "buyer", "the buyer", "sellers", "players", "creators", "advertiser", "the advertiser", "licensee", "the licensee", "client", "the client", "residents", "consumers", "data subjects", "you and we", "you and us", "both you and we", "you or we", "either you or we", "either you or us", "neither you nor", "your"}
	thirdSubjects   = []string{"third parties", "third-party", "third party", "our partners", "partners", "service providers", "our service providers", "our vendors", "vendors", "ad networks", "advertising networks", "other users", "others", "they", "advertisers", "the advertisers", "our advertisers", "these partners", "these companies", "these third parties", "such third parties", "google", "facebook", "analytics providers"}
)

// modal words: what follows the subject tells the modality.
var (
	auxWords        = map[string]bool{"is": true, "are": true, "do": true, "does": true, "was": true, "were": true}
	rightWords      = map[string]bool{"ca": true, "may": true, "might": true, "can": true, "could": true, "reserve": true, "reserves": true, "retain": true, "retains": true, "entitled": true, "free": true, "allowed": true, "permitted": true}
	commitWords     = map[string]bool{"will": true, "shall": true, "commit": true, "commits": true, "undertake": true, "undertakes": true, "promise": true, "promises": true, "guarantee": true, "guarantees": true, "ensure": true, "ensures": true, "strive": true, "endeavour": true, "endeavor": true, "aim": true, "'ll": true, "wo": true, "sha": true}
	obligationWords = map[string]bool{"must": true, "agree": true, "agrees": true, "required": true, "responsible": true, "obliged": true, "obligated": true, "need": true, "needs": true, "have": true, "has": true, "should": true, "represent": true, "represents": true, "warrant": true, "warrants": true, "waive": true, "waives": true, "acknowledge": true, "acknowledges": true, "consent": true, "consents": true, "accept": true, "accepts": true, "understand": true, "understands": true}
	fillerWords     = map[string]bool{"hereby": true, "also": true, "only": true, "further": true, "expressly": true, "irrevocably": true, "specifically": true, "additionally": true, "still": true, "therefore": true, "then": true, "generally": true, "and": true, "or": true, "to": true, "be": true, "the": true, "right": true, "do": true, "does": true, "are": true, "is": true, "am": true, "at": true, "all": true, "times": true, "any": true, "time": true, "sole": true, "its": true, "our": true, "discretion": true, "in": true, "so": true, "always": true}
)

// Names returns the names a document gives the service, lower-cased: the
// quoted names of a definition that also names "we" or "us" ('Acme Inc.
// ("Acme", "we", "us")', 'referred to as "Acme" or "we"'), with the name
// before the parenthesis.
func Names(text string) []string {
	var out []string
	// Only the neighbourhoods of a quoted "we" or "us" are read, so a long
	// document costs a few substring searches.
	for _, mark := range nameMarks {
		for off, n := 0, 0; n < 16; n++ {
			i := strings.Index(text[off:], mark)
			if i < 0 {
				break
			}
			i += off
			lo, hi := max(0, i-240), min(len(text), i+160)
			for lo > 0 && !utf8.RuneStart(text[lo]) {
				lo--
			}
			for hi < len(text) && !utf8.RuneStart(text[hi]) {
				hi++
			}
			out = namesIn(text[lo:hi], out)
			off = i + len(mark)
		}
	}
	if n := subjectName(text); n != "" {
		out = appendName(out, n)
	}
	return out
}

// subjectName is the capitalised word the document most often makes the
// subject of a verb ("Proctorio does not", "FedEx may", "Taboola uses"),
// three times at least: the service's name where no definition gives it.
// A partner named as often as the service is rare in the service's own
// terms.
func subjectName(text string) string {
	counts := map[string]int{}
	best, most := "", 2
	prev := ""
	for w := range strings.FieldsSeq(text) {
		// only a capitalised word before a verb costs a look-up
		if r, _ := utf8.DecodeRuneInString(prev); len(prev) >= 3 && unicode.IsUpper(r) && nameVerbs[strings.ToLower(w)] {
			if n := strings.ToLower(prev); !commonNoun[n] && !partyWords[n] {
				counts[n]++
				if counts[n] > most {
					best, most = n, counts[n]
				}
			}
		}
		prev = w
	}
	return best
}

// nameVerbs follow a party's name: modals, auxiliaries and the verbs of
// what a service does.
var nameVerbs = map[string]bool{"may": true, "will": true, "shall": true, "can": true, "cannot": true, "might": true, "must": true, "does": true, "is": true, "has": true, "reserves": true, "uses": true, "collects": true, "shares": true, "sells": true, "processes": true, "stores": true, "retains": true, "provides": true, "offers": true, "receives": true, "discloses": true, "relies": true, "makes": true, "takes": true, "works": true, "grants": true, "respects": true, "values": true}

// partyWords are capitalised subjects that name no one in particular or
// a party the subject lists already read ("You may", "Users can", "Customer
// shall").
var partyWords = map[string]bool{"you": true, "we": true, "our": true, "your": true, "the": true, "if": true, "user": true, "users": true, "customer": true, "customers": true, "member": true, "members": true, "advertiser": true, "buyer": true, "seller": true, "licensee": true, "licensor": true, "company": true, "service": true, "provider": true, "party": true, "google": true, "facebook": true, "apple": true, "microsoft": true, "amazon": true, "one": true, "she": true, "he": true, "there": true, "when": true, "where": true, "once": true, "here": true, "player": true, "client": true, "processor": true, "controller": true, "agreement": true, "policy": true, "section": true, "platform": true, "website": true, "site": true, "app": true, "application": true}

// readings reads each sentence of a document once: ReadClause of a
// sentence is wanted for its own hits and again for each list item it
// introduces or precedes (introReading), up to 30 of them.
type readings struct {
	d     *doc
	names []string
	rd    []Reading
	read  []bool
}

func newReadings(d *doc, names []string) *readings {
	return &readings{d: d, names: names, rd: make([]Reading, len(d.spans)), read: make([]bool, len(d.spans))}
}

// clause is ReadClause of sentence i.
func (r *readings) clause(i int) Reading {
	if !r.read[i] {
		r.rd[i], r.read[i] = ReadClause(r.d.sentence(i), r.names), true
	}
	return r.rd[i]
}

// sentence is how sentence i binds: a list item without a subject of its
// own is bound as the sentence that introduces its list.
func (r *readings) sentence(i int) Reading {
	rd := r.clause(i)
	if rd.Actor == ActorNone {
		rd = introReading(r, i, rd)
	}
	return rd
}

// introReading: a list item without a subject of its own ("* share API
// data with third parties" under "You agree not to:") is bound as the
// sentence that introduces the list, the nearest one before it ending
// with a colon across at most 30 items; before that intro, the nearest
// item with a subject of its own gives the item its actor ("xxv. we
// analyse ..." before "xxvi. to conduct research").
func introReading(r *readings, i int, rd Reading) Reading {
	d := r.d
	var head [markerRunes]rune
	if !startsWithMarker(d.head(i, head[:])) && !(i > 0 && d.last(i-1) == ':') {
		return rd
	}
	for j := i - 1; j >= 0 && j >= i-30; j-- {
		in := r.clause(j)
		switch {
		case d.last(j) == ':' && in.Actor != ActorNone:
			return in
		case d.last(j) == ':':
			return rd
		case in.Actor != ActorNone:
			// a sibling tells who acts; how is the item's own
			return Reading{in.Actor, rd.Modality, rd.Negated}
		}
		if !startsWithMarker(d.head(j, head[:])) {
			return rd
		}
	}
	return rd
}

// markerRunes is as far as startsWithMarker reads.
const markerRunes = 8

// startsWithMarker: a bullet, "1.", "a)", "(iv)", "iii." opens the
// sentence.
func startsWithMarker(rs []rune) bool {
	if len(rs) == 0 {
		return false
	}
	switch rs[0] {
	case '-', '•', '*', '·', '–', '—', '▪', '◦', '|':
		return true
	}
	j := 0
	if rs[j] == '(' {
		j++
	}
	k := j
	for k < len(rs) && k-j < 5 && (unicode.IsDigit(rs[k]) || unicode.IsLower(rs[k])) {
		k++
	}
	return k > j && k < len(rs) && (rs[k] == '.' || rs[k] == ')') && (k-j <= 2 || isRoman(string(rs[j:k])))
}

// SentenceReading is how the gate reads one sentence: its kind and who it
// binds, and how.
type SentenceReading struct {
	Kind    Kind
	Reading Reading
}

// ReadSentences reads every sentence of text (as Sentences cuts it) as the
// gate does; cmd/eval-cases measures the reading with it.
func ReadSentences(text string) []SentenceReading {
	d := newDoc(text)
	rds := newReadings(d, Names(text))
	out := make([]SentenceReading, len(d.spans))
	var rs []rune
	for i := range out {
		rs = d.appendRunes(rs[:0], i)
		out[i] = SentenceReading{sentenceKind(d, i, rs), rds.sentence(i)}
	}
	return out
}

// nameMarks are the quoted pronouns a definition of the service's name
// carries.
var nameMarks = []string{`we"`, `We"`, "we”", "We”", "we'", "We'", "we’", "We’", `us"`, "us”", "referred to as"}

func namesIn(window string, out []string) []string {
	low := strings.ToLower(quoteFolder.Replace(window))
	low = strings.NewReplacer("“", `"`, "”", `"`).Replace(low)
	for _, loc := range nameDefRe.FindAllStringSubmatchIndex(low, 8) {
		group := low[loc[0]:loc[1]]
		for _, q := range quotedRe.FindAllStringSubmatch(group, -1) {
			n := strings.TrimSpace(q[1])
			switch n {
			case "we", "us", "our", "ours", "company", "the company", "":
				continue
			}
			out = appendName(out, n)
		}
		if before := low[max(0, loc[0]-60):loc[0]]; before != "" && strings.HasPrefix(group, "(") {
			if m := preNameRe.FindStringSubmatch(before); m != nil {
				out = appendName(out, strings.TrimSpace(m[1]))
			}
		}
	}
	return out
}

var (
	nameDefRe = mustPattern(`\((?:[^()]{0,80}?)["'](?:we|us|our)["'][^()]{0,80}\)|referred to (?:herein )?as ["'][^"']{1,40}["'](?:,? (?:or|and) ["'][^"']{1,40}["']){0,3}`)
	quotedRe  = mustPattern(`["']([^"']{1,40})["']`)
	preNameRe = mustPattern(`([a-z0-9][\w.&-]*(?: [\w.&-]+){0,3}?)\s*,?\s*$`)
)

func appendName(out []string, n string) []string {
	n = strings.TrimSuffix(strings.TrimSuffix(n, ","), ".")
	if n == "" || len(n) > 40 {
		return out
	}
	for _, o := range out {
		if o == n {
			return out
		}
	}
	return append(out, n)
}

// ReadClause decides who a sentence binds and how: the subject of its main
// clause (after a leading "if ...," or "by using ...," and through "you
// agree that ..."), its modality and whether its verb is negated. names
// are the service's names in the document (Names).
func ReadClause(sentence string, names []string) Reading {
	low := strings.ToLower(quoteFolder.Replace(sentence))
	low = strings.Join(strings.FieldsFunc(low, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\u201c' || r == '\u201d' || r == '(' || r == ')' || r == '*'
	}), " ")
	low = strings.ReplaceAll(low, "n't", " n't")
	low = strings.TrimLeft(low, "-•·–—▪◦#§>|0123456789.) ")
	return readFrom(low, names, 0)
}

func readFrom(low string, names []string, depth int) Reading {
	// "In no event shall Acme be liable", "under no circumstances will we
	// be responsible": an inverted, negated clause.
	if loc := noEventRe.FindStringIndex(low); loc != nil {
		r := readFrom(low[loc[1]:], names, depth+1)
		if r.Actor == ActorNone {
			r.Actor = ActorService
		}
		r.Modality, r.Negated = ModStatement, true
		return r
	}
	for i := 0; i < 3; i++ {
		loc := leadClauseRe.FindStringIndex(low)
		if loc == nil {
			break
		}
		low = low[loc[1]:]
	}
	if depth < 2 {
		if loc := youAgreeThatRe.FindStringIndex(low); loc != nil {
			return readFrom(low[loc[1]:], names, depth+1)
		}
		if loc := noteThatRe.FindStringIndex(low); loc != nil {
			return readFrom(low[loc[1]:], names, depth+1)
		}
	}
	if yourDutyRe.MatchString(low) {
		return Reading{ActorUser, ModObligation, false}
	}
	if loc := youLetUsRe.FindStringIndex(low); loc != nil {
		return Reading{ActorService, ModRight, false}
	}
	actor, rest := subjectOf(low, names)
	if actor == ActorNone {
		if doc := documentSubjectRe.FindString(low); doc != "" {
			// "These Terms may be changed", "this policy applies to":
			// the document binds no one and states what holds, whatever
			// its verb
			_, neg := modalityOf(strings.TrimPrefix(low, doc))
			return Reading{ActorNone, ModStatement, neg}
		}
		if actor, rest = passiveOf(low); actor == ActorNone {
			actor, rest = subjectWithin(low, names)
		}
		if actor == ActorNone {
			return Reading{ActorNone, ModStatement, leadingNegation(low)}
		}
	}
	mod, neg := modalityOf(rest)
	neg = neg || actor == ActorService && leadingNegation(low) // "no data is sold"
	if prohibitedRe.MatchString(rest) {
		// "you are prohibited from", "scraping is not allowed"
		mod, neg = ModObligation, true
	}
	if actor == ActorUser && mod == ModCommitment {
		mod = ModObligation // "you will not", "you shall"
	}
	switch {
	case actor == ActorService && containsAny(rest, disclaimerWords) && disclaimerRe.MatchString(rest):
		// "we shall not be liable", "we cannot guarantee", "the Services
		// may contain links": what holds, not what is taken or promised
		mod = ModStatement
	case actor == ActorService && neg && mod == ModStatement:
		// "we do not sell your data", "Acme never shares": a present-tense
		// promise about the service's own conduct
		mod = ModCommitment
	case mayBeAbleRe.MatchString(rest):
		// "you may not be able to use some features": what may happen,
		// not a prohibition
		mod = ModStatement
	case (actor == ActorUser || actor == ActorService) && mayBeRequiredRe.MatchString(rest):
		// "you may be required to", "it may be asked to": a duty
		mod = ModObligation
	}
	if actor == ActorUser && strings.HasPrefix(low, "your ") {
		// "your use of the service is subject to ...", "your data is
		// stored": the user's things, read as passives above when they
		// take a participle; otherwise statements about the user.
		mod = ModStatement
	}
	return Reading{actor, mod, neg}
}

// passiveOf reads a passive at the start of low whose agent is not named
// as the service's act ("your account may be terminated", "cookies are
// used"), and a prohibition ("automated access is prohibited") as a rule
// for the user; it returns the actor and the verb group from its
// auxiliary on, or ActorNone.
func passiveOf(low string) (Actor, string) {
	loc := passiveRe.FindStringSubmatchIndex(low)
	if loc == nil || lawPassiveRe.MatchString(low[:loc[1]]) || passiveAgentRe.MatchString(low) {
		return ActorNone, ""
	}
	rest := low[loc[4]:]
	if prohibitedRe.MatchString(rest) {
		return ActorUser, rest
	}
	return ActorService, rest
}

// subjectWithin finds a subject past the start of low when nothing at the
// start is one ("With this information we can ...", "After the retention
// period we will delete ..."): the first "we", a name of the service
// before a verb, or "you" before a modal, in the first clause.
func subjectWithin(low string, names []string) (Actor, string) {
	f := strings.Fields(low)
	for k := 1; k+1 < len(f) && k < 30; k++ {
		w, next := strings.TrimRight(f[k], ","), f[k+1]
		switch {
		case w == "and" || w == "but":
			// the first clause's subject is no party ("your continued use
			// ... constitutes acceptance, and you will be bound"): a
			// subject after it is another clause's
			return ActorNone, ""
		case w != f[k]:
			continue // "..., we" is read after its comma as a lead
		case w == "we" && !relativeWords[f[k-1]]:
			return ActorService, strings.Join(f[k+1:], " ")
		case w == "you" && (rightWords[next] || commitWords[next] || next == "must" || next == "have" || next == "agree"):
			return ActorUser, strings.Join(f[k+1:], " ")
		case nameVerbs[next] && slices.Contains(names, w):
			return ActorService, strings.Join(f[k+1:], " ")
		}
	}
	return ActorNone, ""
}

// relativeWords open a clause inside another ("what we collect", "the
// data that we hold"), whose subject is not the sentence's.
var relativeWords = map[string]bool{"what": true, "that": true, "which": true, "who": true, "whom": true, "how": true, "why": true, "where": true, "when": true, "if": true, "whether": true}

// userNouns name the reader after a qualifier ("registered users may",
// "EU residents have").
var userNouns = map[string]bool{"users": true, "members": true, "customers": true, "residents": true, "consumers": true, "subscribers": true, "visitors": true, "players": true}

// subjectOf finds the subject at the start of low and returns its actor and
// the words after it.
func subjectOf(low string, names []string) (Actor, string) {
	try := func(subjects []string, a Actor) (Actor, string, bool) {
		best := ""
		for _, s := range subjects {
			if len(s) > len(best) && strings.HasPrefix(low, s) && (len(low) == len(s) || low[len(s)] == ' ' || low[len(s)] == ',' || low[len(s)] == '\'') {
				best = s
			}
		}
		if best == "" {
			return ActorNone, "", false
		}
		return a, strings.TrimLeft(low[len(best):], " ,"), true
	}
	for _, n := range names {
		if strings.HasPrefix(low, n+" ") || strings.HasPrefix(low, n+"'s ") || strings.HasPrefix(low, "the "+n+" ") {
			rest := strings.TrimPrefix(strings.TrimPrefix(low, "the "), n)
			if strings.HasPrefix(rest, "'s ") {
				return ActorNone, ""
			}
			return ActorService, strings.TrimLeft(rest, " ,")
		}
	}
	// "you and we agree", "both parties": a dispute clause binds the user
	// (the guidelines' mutual clauses); others the service, read below.
	if strings.HasPrefix(low, "you and ") || strings.HasPrefix(low, "both you and") {
		return ActorUser, afterVerbStart(low)
	}
	if a, rest, ok := try(serviceSubjects, ActorService); ok {
		if rest != "" && !strings.HasPrefix(low, "it ") || a == ActorService && isVerbStart(rest) {
			return a, rest
		}
	}
	if a, rest, ok := try(userSubjects, ActorUser); ok {
		if strings.HasPrefix(low, "your ") {
			return ActorNone, ""
		}
		return a, rest
	}
	if a, rest, ok := try(thirdSubjects, ActorThirdParty); ok && isVerbStart(rest) {
		return a, rest
	}
	if f := strings.Fields(low); len(f) > 3 {
		for k := 1; k <= 2; k++ {
			if n := f[k+1]; userNouns[f[k]] && (rightWords[n] || commitWords[n] || obligationWords[n] || auxWords[n]) {
				return ActorUser, strings.Join(f[k+1:], " ")
			}
		}
	}
	// "Our team reviews", "our systems may": what is the service's acts
	// for it (its partners and vendors were read above as third parties)
	if strings.HasPrefix(low, "our ") {
		// the verb group comes after one or two nouns
		f := strings.Fields(low)
		for k := 2; k < len(f) && k <= 3; k++ {
			if w := f[k]; rightWords[w] || commitWords[w] || obligationWords[w] || auxWords[w] || strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(f[k-1], "s") {
				return ActorService, strings.Join(f[k:], " ")
			}
		}
	}
	// A proper name followed by a modal: "Acme may terminate", "Crunchyroll
	// reserves the right": the service when the document has not named it.
	if f := strings.Fields(low); len(f) > 1 && len(f[0]) > 2 && (rightWords[f[1]] || commitWords[f[1]] || f[1] == "reserves" || f[1] == "collects" || f[1] == "uses" || f[1] == "shares" || f[1] == "sells") && !commonNoun[f[0]] {
		return ActorService, strings.Join(f[1:], " ")
	}
	return ActorNone, ""
}

// commonNoun are first words before a modal that name no party ("this
// agreement may", "content may").
var commonNoun = map[string]bool{"this": true, "these": true, "that": true, "such": true, "content": true, "information": true, "data": true, "terms": true, "agreement": true, "changes": true, "disputes": true, "claims": true, "any": true, "all": true, "some": true, "each": true, "there": true, "payments": true, "fees": true, "prices": true, "cookies": true, "access": true, "use": true, "nothing": true, "no": true, "which": true, "what": true, "who": true, "how": true, "personal": true,
	"arbitration": true, "notice": true, "notices": true, "subscriptions": true, "subscription": true, "accounts": true, "refunds": true, "purchases": true, "software": true, "services": true, "products": true, "links": true, "ads": true, "advertisements": true, "you": true, "it": true, "they": true, "we": true, "amendments": true, "updates": true, "liability": true, "damages": true, "transfers": true, "communications": true, "messages": true, "emails": true, "orders": true, "delivery": true, "materials": true, "posts": true, "reviews": true, "comments": true, "feedback": true, "billing": true, "pricing": true, "features": true, "termination": true, "suspension": true, "violations": true, "requests": true, "records": true, "logs": true, "backups": true, "copies": true, "cases": true}

func afterVerbStart(low string) string {
	f := strings.Fields(low)
	for k, w := range f {
		if rightWords[w] || commitWords[w] || obligationWords[w] || w == "are" || w == "do" {
			return strings.Join(f[k:], " ")
		}
	}
	return ""
}

// isVerbStart: the words after a subject begin with a verb group (a modal,
// an auxiliary, an adverb or a verb in -s), so "it" or "they" are subjects
// there and not objects of a fragment.
func isVerbStart(rest string) bool {
	w, _, _ := strings.Cut(rest, " ")
	return w != "" && (rightWords[w] || commitWords[w] || obligationWords[w] || fillerWords[w] || negWordRe.MatchString(w) || strings.HasSuffix(w, "s") || w == "use" || w == "collect" || w == "share" || w == "sell" || w == "process" || w == "store" || w == "retain" || w == "keep" || w == "disclose" || w == "transfer" || w == "provide" || w == "receive" || w == "obtain" || w == "track" || w == "work" || w == "partner" || w == "rent" || w == "display" || w == "show" || w == "serve" || w == "delete" || w == "terminate" || w == "suspend" || w == "remove" || w == "change" || w == "modify" || w == "update" || w == "reserve" || w == "read" || w == "access" || w == "were" || w == "was" || w == "did")
}

// modalityOf reads the verb group at the start of rest (at most six
// words): its modality and its negation.
func modalityOf(rest string) (Modality, bool) {
	f := strings.Fields(rest)
	f = f[:min(len(f), 7)]
	mod, neg, set := ModStatement, false, false
words:
	for k, w := range f {
		w = strings.Trim(w, ",;:")
		switch {
		case negWordRe.MatchString(w):
			neg = true
			if w == "cannot" || w == "can't" {
				if !set {
					mod, set = ModRight, true
				}
			}
			if w == "won't" || w == "shan't" {
				if !set {
					mod, set = ModCommitment, true
				}
			}
			continue
		case w == "no" && k > 0:
			neg = true
			continue
		}
		if !set {
			switch {
			case w == "reserve" || w == "reserves" || w == "retain" || w == "retains":
				mod, set = ModRight, true
				continue
			case w == "are" || w == "is" || w == "be" || w == "am":
				// "are required to", "are responsible for", "are entitled to",
				// "is free to": the word after decides
				if k+1 < len(f) {
					n := strings.Trim(f[k+1], ",;:")
					if n == "not" && k+2 < len(f) {
						n = f[k+2]
					}
					switch {
					case obligationWords[n] || n == "solely" || n == "prohibited" || n == "forbidden" || n == "expected" || n == "liable":
						mod, set = ModObligation, true
					case rightWords[n] || n == "able":
						mod, set = ModRight, true
					}
				}
				continue
			case rightWords[w]:
				mod, set = ModRight, true
				continue
			case w == "must" || w == "should" || obligationWords[w] && w != "have" && w != "has" && w != "need" && w != "needs":
				mod, set = ModObligation, true
				continue
			case (w == "have" || w == "has") && haveRightRe.MatchString(strings.Join(f[k+1:], " ")):
				// "you have the right", "you have a right", "you have several
				// options"
				mod, set = ModRight, true
				continue
			case (w == "have" || w == "has" || w == "need" || w == "needs") && k+1 < len(f) && f[k+1] == "to":
				mod, set = ModObligation, true
				continue
			case commitWords[w]:
				mod, set = ModCommitment, true
				continue
			}
		}
		if fillerWords[w] || w == "do" || w == "does" || w == "did" || w == "will" || w == "shall" {
			continue
		}
		if set || k > 0 {
			break words
		}
	}
	if !set {
		mod = ModStatement
	}
	return mod, neg
}

// leadingNegation: a subjectless sentence that starts negated ("No
// personal data is sold", "Never ...").
func leadingNegation(low string) bool {
	return strings.HasPrefix(low, "no ") || strings.HasPrefix(low, "never ") || strings.HasPrefix(low, "none ") || strings.HasPrefix(low, "nothing ")
}
