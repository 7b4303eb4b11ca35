package analyze

import (
	"slices"
	"testing"
)

// Disputes: each practice found in several wordings (findsEach, weighty_test.go).
func TestDisputesWordings(t *testing.T) {
	findsEach(t, []caseText{
		{titleClassAction, "You may bring claims against us only in your individual capacity and not as a plaintiff or class member in any purported class or representative proceeding."},
		{titleClassAction, "YOU WAIVE ANY RIGHT TO PARTICIPATE IN A CLASS ACTION LAWSUIT."},
		{titleClassAction, "Each of us may bring claims against the other solely on an individual basis."},
		{titleClassAction, "Any proceeding to resolve a dispute will be conducted only in your individual capacity."},
		{titleClassAction, "Claims of different users may not be consolidated or joined in one proceeding."},
		{titleClassAction, "No arbitration or lawsuit may proceed as a mass action or on behalf of a group of users."},
		{titleArbitration, "Any dispute shall be finally settled by binding arbitration administered by the AAA."},
		{titleArbitration, "You and Acme agree to resolve all disputes through individual arbitration."},
		{titleArbitration, "Every claim will be finally resolved under the arbitration rules of the London Court of International Arbitration."},
		{titleArbitration, "All controversies shall be settled under the Commercial Rules of the American Arbitration Association by a sole arbitrator."},
		{titleArbitration, "By accepting these Terms you waive your right to go to court and to a trial by jury."},
		{titleArbitration, "Both parties waive the right to have any dispute heard in court before a judge or jury."},
	})
}

// Disputes: sentences that share a practice's words but state another case or
// none.
func TestDisputesLookAlikes(t *testing.T) {
	findsNone(t, []caseText{
		{titleClassAction, "If this class action waiver is found unenforceable, the rest of this section remains in force."},
		{titleClassAction, "The arbitrator may award relief on an individual basis, as a court could."},
		{titleClassAction, "Mass arbitrations are administered under the provider's mass arbitration rules."},
		{titleArbitration, "The arbitrator shall decide the scope, validity and enforceability of this arbitration agreement."},
		{titleArbitration, "You and we will first try to resolve any dispute informally for 60 days before starting an arbitration."},
		{titleArbitration, "If the dispute is resolved through arbitration, the hearing will take place where you live."},
		{titleArbitration, "Residents of the EU may invoke binding arbitration for complaints about our certification."},
	})
}

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
