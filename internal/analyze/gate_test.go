package analyze

import (
	"strings"
	"testing"
)

// The look-alikes of issue 21: obligations and prohibitions on the user,
// protective sentences and sentences about the document are no findings
// of the service's practice, while the practices themselves stay found.
func TestWhoIsBoundInFindings(t *testing.T) {
	e := engine(t)
	type want struct {
		cat, sev string // a finding of this category and severity must (or must not) be there
		present  bool
	}
	cases := []struct {
		doc, text string
		want      []want
	}{
		{"privacy", "We may sell your data to anyone who pays for it.", []want{{"data_sale", SeverityBlocker, true}}},
		{"terms", "Users may not sell their accounts to other users.", []want{{"data_sale", SeverityBlocker, false}, {"data_sale", SeverityGood, false}}},
		{"terms", "You may not resell data you obtain from us.", []want{{"data_sale", SeverityGood, false}}},
		{"terms", "You must not disclose your password to third parties.", []want{{"third_party_sharing", SeverityGood, false}}},
		{"privacy", "You agree to receive a verification code by SMS.", []want{{"data_collection", SeverityBad, false}}},
		{"terms", "We will not close an account because of good-faith criticism of us.", []want{{"unilateral_termination", SeverityBad, false}}},
		{"privacy", "We cannot read your messages, which are end-to-end encrypted.", []want{{"user_rights", SeverityBad, false}}},
		{"terms", "We may terminate your account at any time, for any reason, without notice.", []want{{"unilateral_termination", SeverityBad, true}}},
		{"privacy", "We do not currently respond to Do Not Track signals.", []want{{"tracking", SeverityBad, true}}},
		// the third round's forms
		{"privacy", "Please note that we may sell your personal data to advertisers.", []want{{"data_sale", SeverityBlocker, true}}},
		{"privacy", "With your consent we may share your personal data with advertising partners.", []want{{"third_party_sharing", SeverityBad, true}}},
		{"terms", "Your account may be terminated at any time without notice.", []want{{"unilateral_termination", SeverityBad, true}}},
		{"terms", "It is your responsibility not to share your password with third parties.", []want{{"third_party_sharing", SeverityGood, false}}},
		{"terms", "Acme does not sell your personal data. Acme may terminate your account at any time without notice.", []want{{"data_sale", SeverityGood, true}, {"unilateral_termination", SeverityBad, true}, {"other", SeverityGood, false}}},
		{"privacy", "Your data is subject to our Privacy Policy.", []want{{"data_sale", SeverityGood, false}, {"third_party_sharing", SeverityBad, false}}},
	}
	for _, c := range cases {
		fs := e.Analyze(c.text, Options{DocumentType: c.doc}).Findings
		for _, w := range c.want {
			found := false
			for _, f := range fs {
				found = found || f.Category == w.cat && f.Severity == w.sev
			}
			if found != w.present {
				t.Errorf("%q: %s/%s found %v, want %v (findings %v)", c.text, w.cat, w.sev, found, w.present, fs)
			}
		}
	}
}

// The quote is the sentence that states the practice: the waiver, not the
// sentence before it that shares its words.
func TestQuoteIsTheWaiver(t *testing.T) {
	text := "You retain all moral rights in your content. To the extent permitted by law, you waive all moral rights in your content in favour of Acmé Ünïcode Ltd."
	res := engine(t).Analyze(text, Options{DocumentType: "terms"})
	rs := []rune(text)
	n := 0
	for _, f := range res.Findings {
		if f.Case != titleMoralRights {
			continue
		}
		n++
		if !strings.HasPrefix(f.Quote, "To the extent") || string(rs[f.Start:f.End]) != f.Quote {
			t.Errorf("moral-rights quote %q at %d-%d, want the waiver sentence alone, exact", f.Quote, f.Start, f.End)
		}
	}
	if n != 1 {
		t.Errorf("%d moral-rights findings, want 1: %v", n, res.Findings)
	}
}
