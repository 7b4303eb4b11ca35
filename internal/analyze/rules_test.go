package analyze

import (
	"slices"
	"testing"
)

// The corrections must read raw service text and the tokenised training text
// alike, and the consumer's own law or forum is never flagged.
func TestCorrections(t *testing.T) {
	cases := []struct {
		sentence string
		model    []string // what the linear model predicted
		want     []string
	}{
		{"This Agreement is governed by, and construed in accordance with, the laws of England.", nil, []string{"choice_of_law"}},
		{"this agreement is governed by , and construed in accordance with , the laws of england .", nil, []string{"choice_of_law"}},
		{"The laws of the State of California govern these Terms.", nil, []string{"choice_of_law"}},
		{"These terms are governed by the laws of your country of residence.", []string{"choice_of_law"}, nil},
		{"Any dispute shall be resolved by final and binding arbitration in Boston.", nil, []string{"arbitration"}},
		{"You agree to arbitrate all claims against us.", nil, []string{"arbitration"}},
		{"Arbitration will take place in the county where you live.", []string{"arbitration"}, nil},
		{"You can cancel your subscription at any time.", []string{"unilateral_termination"}, nil},
		{"We may terminate your account at any time.", []string{"unilateral_termination"}, []string{"unilateral_termination"}},
		{"Acme is liable for damages caused by its negligence.", []string{"limitation_of_liability"}, nil},
		{"You must comply with the laws of your jurisdiction.", nil, nil},
		{"Please read the arbitration section below.", nil, nil},
		// negated, or not the agreement's own law: nothing added
		{"Disputes will not be submitted to arbitration and you may go to court.", nil, nil},
		{"Claims may not be referred to arbitration without the consent of both parties.", nil, nil},
		{"Neither party shall be required to submit to arbitration.", nil, nil},
		{"You may refer to arbitration any question about fees.", nil, nil},
		{"You do not agree to arbitrate by using the app.", nil, nil},
		{"Information we transfer to the United States may be subject to the laws of the United States.", nil, nil},
		{"Our processing of personal data is governed by the laws of the European Union.", nil, nil},
		{"Acme complies with the laws of the US government.", nil, nil},
		{"These terms are governed by the laws of your home country.", nil, nil},
		{"This policy is governed by the laws of your jurisdiction.", []string{"choice_of_law"}, nil},
	}
	for _, c := range cases {
		if got := WithRules(c.sentence, c.model); !slices.Equal(got, c.want) {
			t.Errorf("WithRules(%q, %v) = %v, want %v", c.sentence, c.model, got, c.want)
		}
	}
}
