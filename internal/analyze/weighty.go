package analyze

import (
	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// The weighty practices (issue 21 item 5) are found by rules as well as by
// the learned case model: the model learns each from a few dozen ToS;DR
// quotes and misses wordings they lack, while these practices are stated
// in a small legal vocabulary that a pattern covers across wordings
// ("waive ... moral rights", "in no event ... liable", "class or
// representative action"). The patterns were written from ToS;DR's quotes
// of each case (shared/data/tosdr/points.jsonl, the model's training data)
// and the case labels' guidelines, then narrowed on the false alarms of
// the labelled services of folds 0-2 (cmd/eval-cases -dump; folds 3-4
// kept unread to check them), each narrowing a reading of who acts or
// what for rather than a sentence; who is bound is decided afterwards
// (gate), as for every finding. Each rule's case carries cases.tsv's title,
// rating and category, so its findings are the learned case's.

// Each family of weighty practices has its file, with its titles, its rule
// cases (needs, keywords, confidence) and their patterns: content.go
// (moral rights, licences), disputes.go (arbitration, class actions),
// liability.go, termination.go, changes.go, sharing.go (sale, third
// parties), tracking.go (advertising, other sites), retention.go (copies
// kept after deletion) and biometrics.go.

func weightyCase(title, rating, category string) model.CaseInfo {
	return model.CaseInfo{Title: title, Rating: rating, Category: category}
}

// weightyRules are the rule cases of the weighty practices, tried in this
// order; the arbitration opt-out (optout.go) comes after them and, where it
// matches, stands for the arbitration category alone.
// Termination, changes, advertising and sale or sharing are only: on the
// labelled sentences the learned cases of those titles added one sentence
// the rules missed (now found by a rule) and a dozen false alarms the
// rules' readings of actor and purpose avoid.
var weightyRules = []ruleCase{
	ruleMoralRights,
	ruleLicenceAfter,
	ruleLicenceThird,
	ruleBroadLicence,
	ruleClassAction,
	ruleArbitration,
	ruleLiabilityFees,
	ruleNoLiability,
	ruleTermination,
	ruleChangeNoNotice,
	ruleSellUnlessOpt,
	ruleTargetedAds,
	ruleAds,
	ruleKeepsDeleted,
	ruleBiometric,
	ruleOtherSites,
	ruleGivenThird,
}

// negatedBefore: a negation among the n words before position i of w.
func negatedBefore(w string, i, n int) bool {
	return negatorRe.MatchString(lastWords(w[:i], n))
}
