package analyze

import "testing"

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
