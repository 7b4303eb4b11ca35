package analyze

import "testing"

// Who a clause binds, how, and whether it is negated: every pattern of
// issue 21 (obligations and prohibitions on the user, protective
// sentences, passives, the company's own name, "you agree that we ...")
// beside look-alikes that stay the service's practice.
func TestReadClause(t *testing.T) {
	names := []string{"acme", "acme inc"}
	const (
		S, U, T, N     = ActorService, ActorUser, ActorThirdParty, ActorNone
		St, Ri, Co, Ob = ModStatement, ModRight, ModCommitment, ModObligation
	)
	cases := []struct {
		sentence string
		actor    Actor
		mod      Modality
		neg      bool
	}{
		// the service under any name
		{"We may sell your data to anyone.", S, Ri, false},
		{"We may sell your personal information to third parties.", S, Ri, false},
		{"We sell your personal data.", S, St, false},
		{"We collect your email address and phone number.", S, St, false},
		{"Acme may terminate your account at any time.", S, Ri, false},
		{"Acme Inc reserves the right to change these Terms at any time.", S, Ri, false},
		{"The Service may share your information with advertisers.", S, Ri, false},
		{"The Company will notify you before any change takes effect.", S, Co, false},
		{"We reserve the right to suspend your access without notice.", S, Ri, false},
		{"We will not close an account because of good-faith criticism.", S, Co, true},
		{"We cannot read your messages.", S, St, true},
		{"We do not sell your personal information.", S, Co, true},
		{"We never share your data with advertisers.", S, Co, true},
		{"We won't share your data with third parties for their marketing.", S, Co, true},
		{"We shall not be liable for any indirect damages.", S, St, true},
		{"We are not responsible for third-party websites.", S, St, true},
		{"We are entitled to remove any content.", S, Ri, false},
		{"We have the right to terminate your account.", S, Ri, false},
		{"We use cookies to show you personalised ads.", S, St, false},
		{"We also share information with our partners.", S, St, false},
		{"Acme's liability is limited to the fees you paid.", S, St, false},
		// leading clauses and "you agree that"
		{"If you breach these Terms, we may terminate your account without notice.", S, Ri, false},
		{"By using the Service, you agree to be bound by these Terms.", U, Ob, false},
		{"To the maximum extent permitted by law, we will not be liable for lost profits.", S, St, true},
		{"You agree that we may terminate your account at any time.", S, Ri, false},
		{"You acknowledge and agree that Acme may change the Service.", S, Ri, false},
		{"You consent to our sharing of your data with advertisers.", S, Ri, false},
		{"You authorize us to charge your card.", S, Ri, false},
		{"In no event shall Acme be liable for any damages.", S, St, true},
		// passives with the service as agent
		{"Your account may be terminated at any time without notice.", S, Ri, false},
		{"Your personal data may be shared with our advertising partners.", S, Ri, false},
		{"Your information will be deleted within 30 days.", S, Co, false},
		{"Your data is never sold.", S, Co, true},
		{"Your content may be removed by other users.", N, St, false},
		// the user bound: obligations and prohibitions
		{"You may not resell data you obtain from us.", U, Ri, true},
		{"Users may not sell their accounts.", U, Ri, true},
		{"You must not disclose your password to third parties.", U, Ob, true},
		{"You agree to receive a verification code by SMS.", U, Ob, false},
		{"You must be at least 13 years old to use the Service.", U, Ob, false},
		{"You shall not reverse engineer the software.", U, Ob, true},
		{"You will not use the Service for unlawful purposes.", U, Ob, true},
		{"You are responsible for keeping your password secure.", U, Ob, false},
		{"You are required to provide accurate information.", U, Ob, false},
		{"Members must not post content that infringes copyright.", U, Ob, true},
		{"You hereby waive any moral rights in your content.", U, Ob, false},
		{"You waive your right to participate in a class action.", U, Ob, false},
		{"You agree to indemnify and hold Acme harmless.", U, Ob, false},
		{"You and Acme agree to resolve disputes by binding arbitration.", U, Ob, false},
		{"You have to keep your login details confidential.", U, Ob, false},
		{"Users should not share personal information publicly.", U, Ob, true},
		// the user's rights
		{"You may terminate your account at any time.", U, Ri, false},
		{"You can opt out of personalised advertising.", U, Ri, false},
		{"You have the right to access and delete your data.", U, Ri, false},
		{"You retain all moral rights in your content.", U, Ri, false},
		{"You cannot delete your account once created.", U, Ri, true},
		{"You grant us a worldwide, royalty-free licence to use your content.", U, St, false},
		// third parties
		{"Third parties may collect information about you through cookies.", T, Ri, false},
		{"Our partners may use cookies to show you ads on other sites.", T, Ri, false},
		{"Advertisers do not receive your name.", T, St, true},
		{"Google uses the data to provide analytics.", T, St, false},
		// no actor
		{"No personal data is sold.", S, Co, true},
		{"These Terms are governed by the laws of England.", N, St, false},
		{"Arbitration will take place in Boston.", N, St, false},
		{"Payments are non-refundable.", N, St, false},
		// the third round's forms: leads and "note that" skipped, a
		// subject past the start, passives of any subject, prohibitions,
		// disclaimers, the document as subject, the parties of a contract
		{"Please note that we may share your email address with our sponsors.", S, Ri, false},
		{"Rest assured that we never rent your contact details.", S, Co, true},
		{"Instead, we only keep aggregated statistics.", S, St, false},
		{"With your permission we can show you offers from partners.", S, Ri, false},
		{"After thirty days we will erase your uploads.", S, Co, false},
		{"In some cases, such as when you contact support, you can attach files.", U, Ri, false},
		{"This means Acme is acting for your employer.", S, St, false},
		{"Cookies are used to remember your language.", S, St, false},
		{"Uploaded photos may be removed without warning.", S, Ri, false},
		{"No payment details are stored on our servers.", S, Co, true},
		{"Your appeal will be reviewed by other users.", N, St, false},
		{"Our team reviews reported posts within a day.", S, St, false},
		{"Our systems may flag unusual logins.", S, Ri, false},
		{"The Services may contain links to other websites.", S, St, false},
		{"We cannot guarantee that the app will always be available.", S, St, true},
		{"Scraping the site is strictly prohibited.", U, Ob, true},
		{"You are prohibited from impersonating other members.", U, Ob, true},
		{"It is your responsibility to keep your contact details current.", U, Ob, false},
		{"You may be required to verify your identity.", U, Ob, false},
		{"You may not be able to use some features if you disable cookies.", U, St, true},
		{"You have a right to object to direct marketing.", U, Ri, false},
		{"California residents have the right to know what we collect.", U, Ri, false},
		{"Advertiser shall pay all invoices within thirty days.", U, Ob, false},
		{"Either you or we may start arbitration in Boston.", U, Ri, false},
		{"This Policy may be amended from time to time.", N, St, false},
		{"The Agreement shall be construed under Dutch law.", N, St, false},
		{"Your continued use after a change means you accept it, and you will be bound by the new terms.", N, St, false},
	}
	for _, c := range cases {
		got := ReadClause(c.sentence, names)
		if got != (Reading{c.actor, c.mod, c.neg}) {
			t.Errorf("ReadClause(%q) = %v %v neg=%v, want %v %v neg=%v", c.sentence, got.Actor, got.Modality, got.Negated, c.actor, c.mod, c.neg)
		}
	}
	if len(cases) < 90 {
		t.Fatalf("%d sentences, want at least 90", len(cases))
	}
}

// A list item without a subject is bound as its intro, or, with no intro
// that names anyone, takes its actor from the item before it.
func TestReadSentenceListItems(t *testing.T) {
	text := "You agree not to:\n\n* copy the software;\n\n* sell your account.\n\nWe use your information to:\n\n* improve the app;\n\n* send you offers.\n\nThese purposes include:\n\n1. we analyse usage;\n\n2. to prevent fraud."
	rs, spans, read := []rune(text), Sentences(text), ReadSentences(text)
	want := map[string]Reading{
		"* copy the software;":    {ActorUser, ModObligation, true},
		"* sell your account.":    {ActorUser, ModObligation, true},
		"* improve the app;":      {ActorService, ModStatement, false},
		"* send you offers.":      {ActorService, ModStatement, false},
		"2. to prevent fraud.":    {ActorService, ModStatement, false},
		"These purposes include:": {ActorNone, ModStatement, false},
	}
	for i, sp := range spans {
		s := string(rs[sp.Start:sp.End])
		w, ok := want[s]
		if !ok {
			continue
		}
		delete(want, s)
		if got := read[i].Reading; got != w {
			t.Errorf("ReadSentences: %q = %+v, want %+v", s, got, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("sentences not found: %v", want)
	}
}

func TestNames(t *testing.T) {
	got := Names(`These terms are between you and Acme Widgets Ltd. (“Acme”, “we”, “us” or “our”). Welcome.`)
	want := map[string]bool{"acme": true}
	for _, n := range got {
		delete(want, n)
	}
	if len(want) > 0 {
		t.Errorf("Names = %q, want acme among them", got)
	}
	// no definition: the word the document makes a subject most often
	text := "Globex collects your address. You may ask us. Globex uses it to ship. Globex does not sell it. Google may count visits."
	if got := Names(text); len(got) != 1 || got[0] != "globex" {
		t.Errorf("Names(%q) = %q, want [globex]", text, got)
	}
}
