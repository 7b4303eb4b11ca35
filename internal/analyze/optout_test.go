package analyze

import (
	"slices"
	"testing"
)

const (
	forcedArbitration = "This service forces users into binding arbitration in the case of disputes"
	optOutArbitration = "This service does not force users into binding arbitration"
)

const arbitrationTerms = `12. Disputes. Any dispute arising out of or relating to these Terms or the Service will be resolved by final and binding individual arbitration administered by the American Arbitration Association, and not in court. You waive your right to a jury trial and to participate in a class action.`

// The same arbitration clause with and without a way to opt out is a
// different case at a different severity, and the opt-out never makes the
// grade worse.
func TestArbitrationOptOutIsItsOwnCase(t *testing.T) {
	const optOut = "You may opt out of this arbitration agreement by sending written notice to legal@example.com within 30 days of first accepting these Terms."
	forced := engine(t).Analyze(arbitrationTerms, Options{DocumentType: "terms"})
	free := engine(t).Analyze(arbitrationTerms+" "+optOut, Options{DocumentType: "terms"})
	checkInvariants(t, arbitrationTerms+" "+optOut, free)

	if !hasCase(forced, forcedArbitration, SeverityBad) || hasCase(forced, optOutArbitration, SeverityGood) {
		t.Errorf("without an opt-out: cases %+v, want %q (bad) alone", forced.Cases, forcedArbitration)
	}
	// the opt-out counts toward the grade, weighed by its probability
	if !hasCase(free, optOutArbitration, SeverityGood) || free.Basis.Good != forced.Basis.Good+1 {
		t.Errorf("with an opt-out: cases %+v, basis %+v, want %q (good) beside %+v", free.Cases, free.Basis, optOutArbitration, forced.Basis)
	}
	i := slices.IndexFunc(free.Findings, func(f Finding) bool { return f.Case == optOutArbitration })
	if i < 0 || free.Findings[i].Quote != optOut || free.Findings[i].Severity != SeverityGood || free.Findings[i].Category != "arbitration" {
		t.Errorf("with an opt-out: findings %+v, want a good arbitration finding quoting %q", free.Findings, optOut)
	}
	if free.Grade > forced.Grade || free.Score < forced.Score {
		t.Errorf("grade with an opt-out %s (%d), without %s (%d): want no worse", free.Grade, free.Score, forced.Grade, forced.Score)
	}
}

func hasCase(r Result, title, rating string) bool {
	return slices.Contains(r.Cases, Case{Title: title, Rating: rating, Category: "arbitration"})
}

// An opt-out is found however it is worded, and it is the sentence's only
// arbitration case: it lets the user out of the arbitration it names.
func TestArbitrationOptOutWordings(t *testing.T) {
	for _, s := range []string{
		"You may opt out of this arbitration agreement by sending written notice within 30 days of first accepting these Terms.",
		"You can reject this arbitration provision by emailing us within 30 days.",
		"If you do not wish to be bound by this arbitration, email optout@example.com within 30 days of signing up.",
		"You can decline this agreement to arbitrate by submitting the opt-out form within 30 days of registering your account.",
		"YOU HAVE THE RIGHT TO OPT-OUT OF THE ARBITRATION CLAUSE AS EXPLAINED IN SECTION 19.",
		"To opt out, you must notify us in writing within 30 days of the date that you first became subject to this arbitration provision.",
		"IF YOU DO NOT WISH TO ARBITRATE DISPUTES YOU MAY DECLINE TO HAVE YOUR DISPUTES WITH COMCAST ARBITRATED BY NOTIFYING COMCAST IN WRITING WITHIN 30 DAYS.",
	} {
		got := engine(t).DetectCases(s)
		if !slices.Contains(got, optOutArbitration) || slices.Contains(got, forcedArbitration) {
			t.Errorf("%q: cases %q, want %q and not %q", s, got, optOutArbitration, forcedArbitration)
		}
	}
}

// A negated opt-out, an opt-out that is the exception to a binding
// arbitration, the rejection of a change to the arbitration clause and an
// opt-out of something else are no way out of arbitration.
func TestNotAnArbitrationOptOut(t *testing.T) {
	for _, s := range []string{
		"You may not opt out of arbitration.",
		"You cannot opt out of this arbitration agreement.",
		"You will not be able to opt out of this arbitration agreement once you have accepted these Terms.",
		"If you fail to opt out within 30 days, you will be bound to arbitrate all disputes.",
		"You may opt out of marketing emails at any time.",
		"You may opt out of marketing emails at any time, but any dispute will be resolved by binding arbitration.",
		"Unless you opt out, all disputes will be resolved by binding individual arbitration.",
		"Except if you opt out, you agree that disputes between you and us will be resolved by binding, individual arbitration.",
		"If we make any future change to this arbitration provision, you may reject any such change by sending us written notice within 30 days.",
		"If you do not wish to be bound by this arbitration provision, you must not use the Service.",
		"In the event the AAA declines to administer the arbitration, the parties will agree on another arbitration forum.",
	} {
		if got := engine(t).DetectCases(s); slices.Contains(got, optOutArbitration) {
			t.Errorf("%q: cases %q, want no %q", s, got, optOutArbitration)
		}
	}
}

// A rule's case is listed once among the detector's cases, whether the
// model learns it too (the weighty cases) or not (the opt-out).
func TestRuleCasesAreNotLearned(t *testing.T) {
	d := engine(t).cd
	for _, r := range ruleCases {
		n := 0
		for _, c := range d.m.Cases {
			if c.Title == r.info.Title {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q is listed %d times among the detector's cases", r.info.Title, n)
		}
	}
}

// ruleNeeds' array holds every rule case.
func TestRuleCasesFitNeeds(t *testing.T) {
	if len(ruleCases) > maxRuleCases {
		t.Fatalf("%d rule cases, maxRuleCases is %d", len(ruleCases), maxRuleCases)
	}
}
