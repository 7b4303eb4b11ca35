package analyze

import (
	"slices"
	"strings"
	"unicode"
)

// Sentences about the document rather than clauses of it are never
// findings: headings (they still join the paragraph the privacy detector
// reads, so they give context to the sentences under them), table-of-
// contents and link lines, section summaries, cross-references,
// definitions and examples (the kinds of the case labels' guidelines).
var (
	// "This section explains how ...", "This Privacy Policy describes
	// ...", "In short: ...", "Summary", "Key points".
	summaryRe = mustPattern(`^(this|the following|the present|these) (section|part|paragraph|clause|chapter|page|document|policy|privacy policy|privacy notice|notice|statement|terms|agreement|cookie policy|summary|overview)s?( \w+){0,4} (explains?|describes?|sets? (out|forth)|outlines?|tells you|covers?|summari[sz]es?|contains?|provides? (you with )?(an overview|information|details|a summary)|gives? (you )?(an overview|information)|is (intended|designed|meant) to (explain|inform|help|describe)|applies|will (explain|describe|help))\b|^(in short|in summary|in brief|summary|tl;? ?dr|key points?|at a glance|the short version|short version|quick summary|overview)\b|^(please )?(carefully )?read (this|these|the|our)\b[^.]{0,60}\bcarefully\b|^in this (privacy |cookie )?(policy|notice|statement|section|document)[^,]{0,40},? we (describe|explain|set out|outline|tell you)\b|^(below|here|in (this|the following|the next) (section|part)s?|in the (sections?|parts?) below),? (we|you will|you'll|you can) (explain|describe|set out|outline|find|tell you|read|learn)\b|^(the|these) (sections?|parts?|paragraphs?) (below|that follow|following) (explain|describe|set out|outline|tell you|cover)\b|^here(('| i)s| are) (how|what|when|why|where|a summary|an overview|the (main|key))\b`)
	// Summaries that say so past their start ("We wrote this notice to
	// explain ...", "If you book a car, this section applies to you."),
	// looked for only in sentences with summaryWords.
	summaryTailRe = mustPattern(`\b(created|prepared|wrote|written|publish(ed)?|provide) this (privacy |cookie )?(policy|notice|statement|document) to (explain|describe|inform|help|tell)\b|\b(this|the following) (section|part|notice) (applies|apply) to you\.?$`)
	// "See section 4 for how ads work", "For more information, see our
	// Cookie Policy", "Learn more", "Click here".
	crossRefRe = mustPattern(`^(please )?visit (our|the) |^(please )?(see|refer to|consult) (also )?(our|the|section|clause|paragraph|article|sections|this|these|below|above|here|\d)\b|^please (click|use this link|visit)\b|^(for (more|further|additional|detailed) (information|details|info)|to (learn|find out|read) more|learn more|read more|find out more|more (information|details|info)|click here|tap here|details here|further information)\b`)
	// Pointers at their end ("To print these terms, click here.", "Your
	// registration data is subject to our Privacy Policy."), looked for
	// only in sentences with crossRefWords.
	crossRefTailRe = mustPattern(`\bclick here\.?$|\b(is|are) (governed by|subject to) (our|the|\w+'s) ([\w-]+ ){0,2}(privacy|cookie) (policy|notice|statement)\.?$`)
	// A clause that only points elsewhere has no verb of its own after
	// the pointer; one that states a practice too is kept ("see our
	// policy, which says we may sell ...").
	crossRefClauseRe = mustPattern(`[,;]\s*(which|where|and|but)?\s*(we|you) (may|will|can|must|shall|might|reserve|sell|share|collect|use|disclose|terminate)\b`)
	// '"Claim" means any dispute', 'Personal Data refers to'.
	definitionRe = mustPattern(`^["'\x{201c}(]+[^"'\x{201d}]{1,50}["'\x{201d})]+,? (\([^)]{0,30}\) )?(means|mean|shall mean|refers? to|shall refer to|is defined as|are defined as|has the meaning|have the meaning)\b|^(the (term|terms|word|words) )?["'\x{201c}]?[a-z]+( [a-z]+){0,2}["'\x{201d}]? ((in|under) (this|these) \w+( \w+)? )?(means|shall mean|refers to|shall refer to|is defined as|has the meaning)\b|^(as used (herein|in (this|these) \w+( \w+)?)|for the purposes? of (this|these) \w+( \w+)?),? ["'\x{201c}][^"'\x{201d}]{1,40}["'\x{201d}] (shall )?(means?|refers? to)\b|\b(is|are) (collectively |together )?referred to( \w+){0,5} as (the )?["'\x{201c}]|\bshall be construed (so as )?to mean\b|^(in|for the purposes? of|as used in) (this|these) [\w ]{1,40},? ["'\x{201c}][^"'\x{201d}]{1,40}["'\x{201d}] (means|refers)`)
	// use of the service that "means" acceptance is a clause, and so is
	// what a clause "means that" you give up
	notDefinitionRe = mustPattern(`^(your|use|using|continued|access|accessing|this|that|it|which|what)\b|\bmeans that\b`)
	// "For example, if you post a photo ...", "E.g. your IP address".
	exampleRe = mustPattern(`^(for (example|instance)|e\.g\.|example:|examples:|as an example|as examples|to illustrate|illustration:|by way of example|for (the )?purposes? of (example|illustration)|(this|these|that) (includes?|means),? for (example|instance))`)
	// "1. Introduction 2. The Service 3. Your account", "Terms | Privacy
	// | Cookies", "Section 4 ........ 12".
	tocRe     = mustPattern(`\b\d{1,2}\.? [A-Z][^.?!]{1,60} \d{1,2}\.? [A-Z][^.?!]{1,60} \d{1,2}\.? [A-Z]|\.{5,}\s*\d+$`)
	urlOnlyRe = mustPattern(`^(https?://|www\.)\S+$`)
)

// headingLine: sentence i (s, its code points) reads as a heading, not as
// a list item.
func headingLine(d *doc, i int, s []rune) bool {
	// "b. Binding Individual Arbitration.", "*   Liability Cap Exclusions.",
	// "CLASS ACTION WAIVER.": a marker before a title keeps it a title
	if t := stripMarker(s); titleCase(t) || capsHeading(t) || question(t) {
		return true
	}
	return isHeading(s) && !listItem(d, i, s)
}

// isHeading: at most four words ("Cookies.", "5. Termination", "What we
// collect.", "I. Governing Law") unless it is a sentence of three or more
// words with a subject pronoun and a full stop ("We sell your data."), or at
// most ten words without terminal punctuation.
func isHeading(s []rune) bool {
	words, inWord := 0, false
	var first []rune
	for i, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !inWord {
			words++
			if words == 1 {
				first = s[i:]
			}
		}
		inWord = w
	}
	ends := len(s) > 0 && endsSentence(s[len(s)-1])
	if words <= 4 {
		return words < 3 || !ends || !startsWithSubject(first)
	}
	return words <= 10 && !ends
}

func endsSentence(r rune) bool {
	switch r {
	case '.', '!', '?', ':', ';', '。', '！', '？', ')', '"', '\u201d':
		return true
	}
	return false
}

func startsWithSubject(s []rune) bool {
	end := 0
	for end < len(s) && unicode.IsLetter(s[end]) {
		end++
	}
	switch strings.ToLower(string(s[:end])) {
	case "we", "you", "they":
		return true
	}
	return false
}

// stripMarker drops a list marker ("*", "-", "b.", "(iv)", "12.") and the
// space after it.
func stripMarker(s []rune) []rune {
	i := 0
	for i < len(s) && strings.ContainsRune("-•*·–—▪◦#§>|_ \t", s[i]) {
		i++
	}
	j := i
	if j < len(s) && s[j] == '(' {
		j++
	}
	k := j
	for k < len(s) && k-j < 5 && (unicode.IsDigit(s[k]) || unicode.IsLetter(s[k])) {
		k++
	}
	if k > j && k < len(s) && (s[k] == '.' || s[k] == ')') && (k-j <= 2 || isRoman(strings.ToLower(string(s[j:k])))) && k+1 < len(s) && s[k+1] == ' ' {
		i = k + 1
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '_') {
		i++
	}
	return s[i:]
}

// question: a line of at most 20 words ending with a question mark is a
// heading phrased as a question ("8. Where do we store your data?"); the
// clauses of terms and policies are not asked.
func question(s []rune) bool {
	return len(s) > 0 && s[len(s)-1] == '?' && len(strings.Fields(string(s))) <= 20
}

// capsHeading: a line in capitals of at most 14 words with no pronoun,
// modal or verb of a clause ("BINDING ARBITRATION AND CLASS ACTION
// WAIVER."); "WE ARE NOT LIABLE FOR ..." is a shouted clause.
func capsHeading(s []rune) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 4 {
		return false
	}
	ws := strings.FieldsFunc(strings.ToLower(string(s)), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(ws) == 0 || len(ws) > 14 {
		return false
	}
	for _, w := range ws {
		if clauseWords[w] {
			return false
		}
	}
	return true
}

// clauseWords mark a clause in a line of capitals.
var clauseWords = map[string]bool{"we": true, "you": true, "us": true, "they": true, "it": true, "shall": true, "will": true, "may": true, "must": true, "can": true, "is": true, "are": true, "be": true, "not": true, "agree": true, "agrees": true, "waive": true, "waives": true, "have": true, "has": true, "do": true, "does": true, "any": true, "all": true, "no": true}

// Kind is what a sentence is: a clause, or one of the texts about the
// document that are never findings (the kinds of the case labels'
// guidelines).
type Kind uint8

// The kinds of sentence the analyzer tells apart.
const (
	KindClause Kind = iota
	KindHeading
	KindTOC
	KindSummary
	KindCrossReference
	KindDefinition
	KindExample
)

func (k Kind) String() string {
	return [...]string{"clause", "heading", "toc", "summary", "cross_reference", "definition", "example"}[k]
}

// sentenceKind tells what sentence i of d (its code points rs) is: a
// clause unless its text or its shape says it is about the document.
func sentenceKind(d *doc, i int, rs []rune) Kind {
	if k := textKind(rs); k != KindClause {
		return k
	}
	if headingLine(d, i, rs) {
		return KindHeading
	}
	return KindClause
}

// textKind: a table-of-contents or link line, a summary, a
// cross-reference, a definition or an example, from the sentence's text
// alone; KindClause otherwise.
func textKind(s []rune) Kind {
	str := string(s)
	if digits(s) >= 3 && tocRe.MatchString(str) || linkLine(str) || urlOnlyRe.MatchString(strings.TrimSpace(str)) {
		return KindTOC
	}
	low := strings.ToLower(quoteFolder.Replace(strings.TrimLeft(str, "-•·–—▪◦#§>|*0123456789.() \t")))
	if low == "" {
		return KindTOC
	}
	// the anchored patterns are tried only on the first letters they can
	// start with, the others only on sentences holding their words: most
	// sentences are clauses, and this runs on each one with a finding
	switch low[0] {
	case 't', 'i', 's', 'k', 'a', 'o', 'q', 'p', 'r', 'b', 'h':
		if summaryRe.MatchString(low) {
			return KindSummary
		}
	}
	if containsAny(low, summaryWords) && summaryTailRe.MatchString(low) {
		return KindSummary
	}
	switch low[0] {
	case 's', 'p', 'r', 'c', 'f', 't', 'l', 'm', 'd', 'v':
		if crossRefRe.MatchString(low) && !crossRefClauseRe.MatchString(low) {
			return KindCrossReference
		}
	}
	if end := strings.TrimRight(low, ". "); containsAny(end[max(0, len(end)-9):], crossRefWords) && crossRefTailRe.MatchString(low) {
		return KindCrossReference
	}
	switch low[0] {
	case 'f', 'e', 'a', 't', 'i', 'b':
		if exampleRe.MatchString(low) {
			return KindExample
		}
	}
	if containsAny(low, definitionWords) && definitionRe.MatchString(low) && !notDefinitionRe.MatchString(low) {
		return KindDefinition
	}
	return KindClause
}

// listItem: a heading-like line that is an item of a list rather than a
// title ("- sell your data to advertisers", "advertising partners;", an
// item after "We may share your data with:"), which the sentence before
// introduces or which starts in lower case or with a bullet.
func listItem(d *doc, i int, s []rune) bool {
	if len(s) == 0 {
		return false
	}
	first, last := s[0], s[len(s)-1]
	if first == '-' || first == '•' || first == '*' || first == '·' || first == '–' || first == '▪' || first == '◦' || unicode.IsLower(first) {
		return true
	}
	if last == ';' || last == ',' {
		return true
	}
	if i > 0 {
		if p := d.last(i - 1); p == ':' || p == ';' || p == ',' {
			return true
		}
	}
	return false
}

// smallWords stay lower-case in a title.
var smallWords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "for": true, "in": true, "on": true, "by": true, "with": true, "at": true, "from": true, "your": true, "our": true, "we": true, "you": true, "us": true, "is": true, "are": true, "how": true, "what": true, "do": true}

// titleCase: a short line of capitalised words ("6. Limited Time to File
// Claims.", "Liability Cap Exclusions.") is a heading even with its full
// stop; an all-capitals sentence is not (clauses are shouted too).
func titleCase(s []rune) bool {
	words, caps, lower := 0, 0, false
	for _, w := range strings.FieldsFunc(string(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if smallWords[strings.ToLower(w)] {
			continue
		}
		words++
		r := []rune(w)
		if unicode.IsUpper(r[0]) {
			caps++
		}
		for _, c := range r[1:] {
			if unicode.IsLower(c) {
				lower = true
			}
		}
	}
	return lower && words >= 2 && words <= 8 && caps == words
}

// linkLine: three or more short items separated by "|" or "•" ("Terms |
// Privacy | Cookies"), an item of up to seven words where each is
// capitalised like a link's name ("Do Not Sell My Personal Information");
// a table row whose cells say something is no link line.
func linkLine(s string) bool {
	for _, sep := range []string{"|", "•"} {
		if strings.Count(s, sep) < 2 {
			continue
		}
		n := 0
		short := true
		for _, item := range strings.Split(s, sep) {
			w := len(strings.Fields(item))
			if w == 0 {
				continue
			}
			n++
			short = short && (w <= 4 || w <= 7 && capitalised(item))
		}
		if n >= 3 && short {
			return true
		}
	}
	return false
}

// capitalised: every word of s but the small ones starts with a capital.
func capitalised(s string) bool {
	for _, w := range strings.Fields(s) {
		if r := []rune(w); !smallWords[strings.ToLower(w)] && !unicode.IsUpper(r[0]) {
			return false
		}
	}
	return true
}

// summaryWords: one of them is in every sentence summaryTailRe reads;
// crossRefWords: one of them ends every sentence crossRefTailRe reads.
var (
	summaryWords  = []string{" to explain", " to describe", " to inform", " to help", " to tell", "apply to you", "applies to you"}
	crossRefWords = []string{"here", "policy", "notice", "statement"}
)

// definitionWords: one of them is in every definition definitionRe reads.
var definitionWords = []string{" mean", " refer", " defined", " meaning"}

func digits(s []rune) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// A user instruction tells the reader how to do something ("To delete
// your account at any time, visit Settings", "To opt out, click here",
// "Go to Privacy Settings to turn off personalised ads"): it states no
// practice of the service's, so it is never a risk, whatever the words of
// the act it explains (holdPolarity). It stays a clause: the user's
// choices it describes are the privacy categories' (user rights, opt-outs)
// and a right it shows may be a good case.
var (
	// the imperatives and "you can ..." that carry out an instruction
	instructionVerbs = `(visit|go|click|tap|select|open|navigate|log|sign|e-?mail|contact|write|call|follow|turn|switch|uncheck|untick|toggle|press|scroll|choose|adjust|change|update|use|submit|send|fill|complete|enter|find|manage|edit|download|reply|text|mail|let us know|unsubscribe|disable|enable|clear|install|uninstall|head|look|message|ask|request|notify|tell|reach out|get in touch|see|refer|read)`
	// "To X, (please) visit ...", "If you want to X, you can email ...",
	// "Visit Settings to ...", "Click Delete account to ..."
	instructionRe = mustPattern(`^(please )?(to|in order to|if you (want|wish|would like|'d like|prefer|choose|decide|need) to|should you (wish|want) to)\b[^;:]{2,160}?, (please |simply |just |then )?(you (can|may|will need to|need to|should|have to|must|just need to) (simply |first )?)?` + instructionVerbs + `\b|^(please )?(visit|go to|click|tap|navigate to|log in|log into|sign in|e-?mail us|write to us|call us|contact (us|our|the)|turn (off|on)|switch (off|on)|uncheck|untick|toggle|press|scroll|head to|select (the|your|settings|"))\b`)
	// a practice of the service's in the same sentence makes it a clause
	// ("To close your account, contact us, but we may keep your data"),
	// and the law's "to the extent" opens no instruction
	instructionClauseRe = mustPattern(`\b(we|the company|the service|[a-z]+ reserves?)\b( \w+)? (may|will|can|might|shall|reserve|do|does|sell|share|keep|retain|use|collect|disclose|delete|terminate|suspend|remove|change|modify|track|are|is)\b|^to the (extent|fullest|maximum|greatest)\b`)
)

// instruction reports whether low (a lower-cased, quote-folded sentence)
// is a user instruction.
func instruction(low string) bool {
	low = strings.TrimLeft(low, "-•·–—▪◦#§>|*0123456789.() \t")
	return instructionRe.MatchString(low) && !instructionClauseRe.MatchString(embeddedRe.ReplaceAllString(low, ""))
}

// embeddedRe: "how we use your data" names a practice inside the
// instruction's object; it states none.
var embeddedRe = mustPattern(`\b(how|what|which|that|when|where|why|whether|the \w+) (we|the company|the service)\b`)

// optOutPurposeRe: an instruction to opt out of a practice, which it takes as
// given ("To opt out of the sale of your data, click ..." states the sale,
// as the case labels read it: "The service may sell your data unless you
// opt out").
var optOutPurposeRe = mustPattern(`\bopt(-| )?out\b|\bobject to\b|\bdo not (sell|share)\b|\b(turn|switch) off\b|\blimit the (use|sharing|processing)\b|\bstop (receiving )?(personali[sz]ed|targeted|interest-based)\b`)

// unrisked drops the blocker and bad hits of a user instruction
// (hits[n:]): it tells how to do something, not what the service does.
// An opt-out instruction (optOut) keeps the privacy practice it opts out
// of; any other risk of a privacy category leaves the category, neutral
// ("to download your data, go to Settings" is about the user's rights and
// risks nothing).
func unrisked(hits []hit, n int, optOut bool) []hit {
	risk := func(h hit) bool {
		return (h.sev == SeverityBad || h.sev == SeverityBlocker) && !(optOut && slices.Contains(PrivacyCategories, h.cat))
	}
	var neutral []hit
	for _, h := range hits[n:] {
		if risk(h) && slices.Contains(PrivacyCategories, h.cat) &&
			!hasHit(hits[n:], h.cat, SeverityNeutral) && !hasHit(neutral, h.cat, SeverityNeutral) {
			neutral = append(neutral, hit{h.sent, h.cat, SeverityNeutral, h.conf, -1, 0})
		}
	}
	out := hits[:n]
	for _, h := range hits[n:] {
		if !risk(h) {
			out = append(out, h)
		}
	}
	return append(out, neutral...)
}
