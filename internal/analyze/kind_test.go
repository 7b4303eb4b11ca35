package analyze

import "testing"

// What a sentence is, alone on its line: the texts about the document
// that are never findings, beside clauses that look like them and stay
// clauses.
func TestSentenceKind(t *testing.T) {
	cases := []struct {
		sentence string
		want     Kind
	}{
		{"Where do we store your data?", KindHeading},
		{"7. How long do we keep your information?", KindHeading},
		{"Please read these Terms carefully before using the app.", KindSummary},
		{"In this Privacy Notice, we describe how we handle your data.", KindSummary},
		{"We wrote this notice to explain how Acme uses cookies.", KindSummary},
		{"This section explains how we may suspend accounts.", KindSummary},
		{"Registration details are subject to our Privacy Policy.", KindCrossReference},
		{"To download a copy of these terms, click here.", KindCrossReference},
		{"Please visit our help centre to change your settings.", KindCrossReference},
		{"See section 9 for how we use your data for advertising.", KindCrossReference},
		{`As used herein, "Affiliate" means any entity controlling us.`, KindDefinition},
		{`The website and the app are referred to together as the "Platform".`, KindDefinition},
		{`The term "Member" refers to a registered user.`, KindDefinition},
		{"This includes, for example, the pages you visit.", KindExample},
		{"For instance, a post you share can be seen by your friends.", KindExample},
		{"Terms | Privacy | Cookies | Help", KindTOC},
		// look-alikes that are clauses
		{"Arbitration means that you give up your right to sue in court.", KindClause},
		{"We may share your data with advertisers, as described in our Cookie Policy.", KindClause},
		{"You may not be able to use the app without cookies.", KindClause},
		{"Your use of the Service means you accept these Terms.", KindClause},
		{"We may sell your data to anyone who pays for it.", KindClause},
	}
	for _, c := range cases {
		read := ReadSentences(c.sentence)
		if len(read) != 1 {
			t.Fatalf("%q: %d sentences, want 1", c.sentence, len(read))
		}
		if got := read[0].Kind; got != c.want {
			t.Errorf("kind of %q = %v, want %v", c.sentence, got, c.want)
		}
	}
}
