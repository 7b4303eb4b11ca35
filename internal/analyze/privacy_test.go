package analyze

import "testing"

// The name of the opt-out a law requires where data is sold ("Do Not Sell
// or Share My Personal Information") promises nothing: it gives no "not
// sold" card, while the company's own denial still does.
func TestDoNotSellIsNoPromise(t *testing.T) {
	for _, c := range []struct {
		text string
		good bool
	}{
		{`California residents may opt out of the sale of their personal information by clicking the "Do Not Sell My Personal Information" link at the bottom of our homepage.`, false},
		{"To exercise this right, visit our Do Not Sell or Share My Personal Information page or call us toll-free at the number below.", false},
		{"You can submit a request through the Do Not Share or Sell My Info form in your account settings at any time.", false},
		{"Residents of some states may use our Do Not Sell (or Share) My Personal Information form to opt out of such sales.", false},
		{"Click Do Not Sell/Share My Personal Information in the footer of any page to opt out of the sale of your data.", false},
		{"We do not sell your personal information to third parties, and we have not done so in the preceding twelve months.", true},
		{"We will never sell or rent the information you give us to anyone, for any purpose.", true},
	} {
		r := engine(t).Analyze(c.text, Options{DocumentType: "privacy"})
		got := false
		for _, f := range r.Findings {
			got = got || f.Category == "data_sale" && f.Severity == SeverityGood
		}
		if got != c.good {
			t.Errorf("%q: good data_sale %v, want %v", c.text, got, c.good)
		}
	}
}
