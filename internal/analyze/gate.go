package analyze

import (
	"slices"
	"strings"
)

// A practice of the service needs the service as its actor: an obligation
// or prohibition on the user ("you must not disclose your password to
// third parties", "users may not sell their accounts") is never the
// service's practice, and a sentence in which the service negates its own
// act ("we will not close an account because of good-faith criticism",
// "we cannot read your messages") protects the user rather than risks
// anything. keepHits drops the hits these readings contradict, and every
// hit on a sentence that is no clause (sentenceKind).

// serviceCategories are the categories whose findings state what the
// service does with the user's account, content or data.
var serviceCategories = map[string]bool{
	"unilateral_termination": true, "unilateral_change": true, "content_removal": true,
	"data_collection": true, "third_party_sharing": true, "data_sale": true,
	"retention": true, "tracking": true, "international_transfer": true,
}

// noticeDutyRe: a negated service verb about notice or duty still risks
// ("we are not obliged to notify you", "we do not have to give a reason").
var noticeDutyRe = mustPattern(`\b(notice|notify|notif\w+|oblig\w+|required|have to|need to|reason|warn\w*|liable|responsible|guarantee|warrant)\b`)

// protectiveRe: the negated verb is a risky act the service forgoes
// ("will not close", "cannot read", "do not sell"); "we do not respond to
// Do Not Track signals" negates a protection instead.
var protectiveRe = mustPattern(`\b(not|never|n't|cannot|no longer)\s+(\w+\s+){0,3}?(sell|share|disclose|rent|trade|track|collect|close|terminate|suspend|delete|remove|read|access|use|transfer|keep|retain|store|change|modify|give|monetize|scan|listen|profile|target|ban|block|censor)\w*\b`)

// dntRe: the name of the Do Not Track signal negates nothing.
var dntRe = mustPattern(`do[- ]not[- ]track`)

// serviceCase reports whether a case's title states a practice of the
// service (not a right or duty of the user, "You can ...", "You waive
// ...", "Users agree ...").
func serviceCase(title string) bool {
	low := strings.ToLower(title)
	return !(strings.HasPrefix(low, "you ") || strings.HasPrefix(low, "users ") || strings.HasPrefix(low, "user ") || strings.HasPrefix(low, "the user "))
}

// keepHits returns the hits that hold once each sentence's kind and
// reading are known (hits are grouped by sentence, in order).
func (e *Engine) keepHits(d *doc, hits []hit, names []string) []hit {
	out := hits[:0]
	var paras []int
	// the sentences read so far (the privacy detector's hits of a
	// paragraph come after its sentences' own)
	read := map[int]*sentRead{}
	rds := newReadings(d, names)
	var rs []rune // a sentence's code points, reused
	for _, h := range hits {
		r := read[h.sent]
		if r == nil {
			r = &sentRead{}
			read[h.sent] = r
			sent := h.sent
			rs = d.appendRunes(rs[:0], sent)
			kind := sentenceKind(d, sent, rs)
			r.skip = kind != KindClause
			// a short line inside a paragraph ("Email address" under
			// "Information we collect") is an item the privacy detector
			// may quote, not a heading
			if kind == KindHeading {
				if paras == nil {
					paras = paragraphs(d)
				}
				_, first := slices.BinarySearch(paras, sent)
				r.item = !first
			}
			if !r.skip || r.item {
				r.s = d.sentence(sent)
				r.rd = rds.sentence(sent)
			}
		}
		if r.skip && !(r.item && h.cas < 0 && h.sev == SeverityNeutral && slices.Contains(PrivacyCategories, h.cat)) || !keepHit(h, r, e.cd) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// Dropped is a hit the gate took away: the sentence (an index into
// Sentences), the category and the case title ("" for a category alone).
type Dropped struct {
	Sentence       int
	Category, Case string
}

// GateDrops returns the hits of text that keepHits drops, in order: how
// often the gate is wrong is measured on labelled sentences with it
// (cmd/eval-cases). Analyze never calls it.
func (e *Engine) GateDrops(text string, opts Options) []Dropped {
	d := newDoc(text)
	hits := e.sentenceHits(d, opts.DocumentType == "privacy")
	kept := e.keepHits(d, slices.Clone(hits), Names(text))
	var out []Dropped
	k := 0
	for _, h := range hits {
		// kept is hits less the dropped ones, in the same order
		if k < len(kept) && kept[k] == h {
			k++
			continue
		}
		d := Dropped{Sentence: h.sent, Category: h.cat}
		if h.cas >= 0 {
			d.Case = e.cd.m.Cases[h.cas].Title
		}
		out = append(out, d)
	}
	return out
}

// sentRead is what keepHits decided about one sentence.
type sentRead struct {
	skip, item bool
	rd         Reading
	s          string
	low        string // strings.ToLower(s), made when needed
}

// keepHit decides one hit on a clause read as r.
func keepHit(h hit, r *sentRead, cd *caseDetector) bool {
	rd := r.rd
	svc := serviceCategories[h.cat]
	if h.cas >= 0 {
		svc = svc && serviceCase(cd.m.Cases[h.cas].Title)
	}
	switch {
	case svc && rd.Actor == ActorUser && (rd.Modality == ModObligation || rd.prohibition() || !slices.Contains(PrivacyCategories, h.cat)):
		// the user's duty or prohibition is not the service's practice
		// ("you may not resell data you obtain from us"); what the user
		// does with the service ("you provide your email when you sign
		// up") still tells what the service collects, while the user's
		// cancelling is never the service's terminating
		return false
	case svc && rd.Actor == ActorService && rd.Negated && (h.sev == SeverityBad || h.sev == SeverityBlocker) && protective(r):
		// "we will not close an account because of criticism"
		return false
	case h.cat == "user_rights" && h.sev == SeverityBad && rd.Actor == ActorService:
		// "we cannot read your messages" limits the service, not the user
		return false
	case h.sev == SeverityGood && h.cas >= 0 && !serviceCase(cd.m.Cases[h.cas].Title) && rd.Actor == ActorService && rd.Modality == ModRight && !rd.Negated:
		// a right the service takes ("we may terminate your account at
		// any time") is never the user's right ("You have the right to
		// leave this service at any time")
		return false
	}
	return true
}

// protective: the sentence's negated verb forgoes a risky act and says
// nothing of notice or duty.
func protective(r *sentRead) bool {
	if r.low == "" {
		r.low = strings.ToLower(r.s)
	}
	// not deleting what the user deleted is retention (polarity.go)
	return protectiveRe.MatchString(dntRe.ReplaceAllString(r.low, "dnt")) && !noticeDutyRe.MatchString(r.low) && !afterDeletionRe.MatchString(r.low)
}
