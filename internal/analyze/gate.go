package analyze

import (
	"regexp"
	"strings"
)

// A practice of the service needs the service as its actor: an obligation
// or prohibition on the user ("you must not disclose your password to
// third parties", "users may not sell their accounts") is never the
// service's practice, and a sentence in which the service negates its own
// act ("we will not close an account because of good-faith criticism",
// "we cannot read your messages") protects the user rather than risks
// anything. keepHits drops the hits these readings contradict, and every
// hit on a sentence that is no clause (notClause).

// serviceCategories are the categories whose findings state what the
// service does with the user's account, content or data.
var serviceCategories = map[string]bool{
	"unilateral_termination": true, "unilateral_change": true, "content_removal": true,
	"data_collection": true, "third_party_sharing": true, "data_sale": true,
	"retention": true, "tracking": true, "international_transfer": true,
}

// noticeDutyRe: a negated service verb about notice or duty still risks
// ("we are not obliged to notify you", "we do not have to give a reason").
var noticeDutyRe = regexp.MustCompile(`\b(notice|notify|notif\w+|oblig\w+|required|have to|need to|reason|warn\w*|liable|responsible|guarantee|warrant)\b`)

// serviceCase reports whether a case's title states a practice of the
// service (not a right or duty of the user, "You can ...", "You waive
// ...", "Users agree ...").
func serviceCase(title string) bool {
	low := strings.ToLower(title)
	return !(strings.HasPrefix(low, "you ") || strings.HasPrefix(low, "users ") || strings.HasPrefix(low, "user ") || strings.HasPrefix(low, "the user "))
}

// keepHits returns the hits that hold once each sentence's kind and
// reading are known (hits are grouped by sentence, in order).
func (e *Engine) keepHits(rs []rune, spans []Span, hits []hit, names []string) []hit {
	out := hits[:0]
	sent := -1
	var skip bool
	var rd Reading
	var low string
	for _, h := range hits {
		if h.sent != sent {
			sent = h.sent
			skip = notClause(rs, spans, sent)
			if !skip {
				s := string(rs[spans[sent].Start:spans[sent].End])
				rd = ReadClause(s, names)
				low = strings.ToLower(s)
			}
		}
		if skip || !keepHit(h, rd, low, e.cd) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// keepHit decides one hit on a clause read as rd (low its lower-cased
// text).
func keepHit(h hit, rd Reading, low string, cd *caseDetector) bool {
	svc := serviceCategories[h.cat]
	if h.cas >= 0 {
		svc = svc && serviceCase(cd.m.Cases[h.cas].Title)
	}
	switch {
	case svc && rd.Actor == ActorUser:
		// the user's act, duty or prohibition is not the service's
		// practice ("you may not resell data you obtain from us")
		return false
	case svc && rd.Actor == ActorService && rd.Negated && (h.sev == SeverityBad || h.sev == SeverityBlocker) && !noticeDutyRe.MatchString(low):
		// "we will not close an account because of criticism"
		return false
	case h.cat == "user_rights" && h.sev == SeverityBad && rd.Actor == ActorService:
		// "we cannot read your messages" limits the service, not the user
		return false
	}
	return true
}
