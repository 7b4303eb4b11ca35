package analyze

import (
	"slices"
	"strings"
	"testing"
)

func TestParagraphsAsTheLabelsAreCut(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // each paragraph's first sentence
	}{
		{"a heading joins the paragraph it introduces",
			"Information we collect\nWe collect your name. We collect your email.\n\nCookies\nWe use cookies.",
			[]string{"Information we collect", "Cookies"}},
		{"list items join their introduction, marked or not",
			"We collect the following data:\n\n- Name\n- Email address\n\nWe use cookies to remember you.\n\nWe share:\nYour name\nYour email",
			[]string{"We collect the following data:", "We use cookies to remember you.", "We share:"}},
		{"a numbered heading is a heading, not an item",
			"1.3 How we use anonymous data\nAnonymous data helps us improve the product.\n\n1.4 Sharing\nWe do not share it.",
			[]string{"1.3 How we use anonymous data", "1.4 Sharing"}},
		{"a list ends at a paragraph after a blank line",
			"You have the right to:\n- access your data;\n- delete it.\n\nWe keep your data for 30 days.",
			[]string{"You have the right to:", "We keep your data for 30 days."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDoc(c.text)
			starts := paragraphs(d)
			if starts[len(starts)-1] != len(d.spans) {
				t.Fatalf("paragraphs end at %d, want len(spans) = %d", starts[len(starts)-1], len(d.spans))
			}
			var got []string
			for _, i := range starts[:len(starts)-1] {
				got = append(got, d.sentence(i))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("paragraphs start at %q, want %q", got, c.want)
			}
		})
	}
}

// privacyFindings is the privacy category -> severities found in text.
func privacyFindings(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, f := range engine(t).Analyze(text, Options{DocumentType: "privacy"}).Findings {
		if slices.Contains(PrivacyCategories, f.Category) {
			out[f.Category] = append(out[f.Category], f.Severity)
		}
	}
	return out
}

func TestPrivacyDetectorReadsTheParagraph(t *testing.T) {
	// A bare list item says nothing alone; under its heading it is data
	// collection, and the finding quotes a sentence of the list, not the
	// heading.
	text := "Information we collect about you\nWhen you create an account:\n- your name and email address\n- your phone number and postal address"
	r := engine(t).Analyze(text, Options{DocumentType: "privacy"})
	var quotes []string
	for _, f := range r.Findings {
		if f.Category == "data_collection" {
			quotes = append(quotes, f.Quote)
		}
	}
	if len(quotes) == 0 {
		t.Fatalf("no data_collection finding in %q: %+v", text, r.Findings)
	}
	for _, q := range quotes {
		if strings.HasPrefix(q, "Information we collect about you") && !strings.Contains(q, "\n") {
			t.Errorf("the finding quotes the heading alone: %q", q)
		}
	}
}

func TestPrivacyDetectorFindsWhatPatternsMiss(t *testing.T) {
	// Subjects other than "we", passives and purposes: the patterns'
	// blind spots the labels showed.
	for text, want := range map[string]string{
		"Acme processes your contact details and order history to deliver your purchases and to prevent fraud.":                                 "data_collection",
		"Your personal information may be disclosed to our payment processors, hosting providers and professional advisers.":                    "third_party_sharing",
		"You may request access to, correction of, or deletion of the personal information we hold about you by emailing privacy@acme.example.": "user_rights",
	} {
		if got := privacyFindings(t, text); len(got[want]) == 0 {
			t.Errorf("%q: findings %v, want %s", text, got, want)
		}
	}
}

func TestDetectorFindingsAreNeutralPatternsDecideSeverity(t *testing.T) {
	// The detector says a practice is stated; a pattern that reads the
	// negation keeps deciding that "we do not sell" is good.
	got := privacyFindings(t, "We do not sell your personal information to anyone, and we never rent it.")
	if !slices.Contains(got["data_sale"], SeverityGood) || slices.Contains(got["data_sale"], SeverityBlocker) {
		t.Errorf("data_sale findings %v, want good and no blocker", got["data_sale"])
	}
	for cat, sevs := range privacyFindings(t, "Acme processes your contact details and order history to deliver your purchases and to prevent fraud.") {
		for _, s := range sevs {
			if s != SeverityNeutral {
				t.Errorf("%s found %s, want the detector's neutral", cat, s)
			}
		}
	}
}

func TestShortParagraphsAreNotScored(t *testing.T) {
	if !hasWords(Normalize("one two three four five six"), minParagraphWords) || hasWords(Normalize("10. Contact: write to us."), minParagraphWords) {
		t.Fatal("hasWords miscounts")
	}
	got := privacyFindings(t, "10. Contact\n\nWrite to us.")
	if len(got) != 0 {
		t.Errorf("a contact line has privacy findings %v", got)
	}
}

func TestChildrenMustBeNamed(t *testing.T) {
	if mentions("children", "questions? write to support.") || !mentions("children", "users under 13 may not register.") || !mentions("retention", "anything") {
		t.Error("mentions does not apply the category's need")
	}
}

// Tracking is third-party and cross-site collection (GUIDELINES.md under
// tracking, round four): the service's own cookies, functional or not, and
// the cookie controls are no tracking finding, and a stated absence of
// tracking is a good one.
func TestTrackingIsThirdPartyOrCrossSite(t *testing.T) {
	const none, found, good = "none", "found", "good"
	for _, c := range []struct{ text, want string }{
		// functional storage
		{"We use strictly necessary cookies to keep you logged in and to remember the items in your shopping cart.", none},
		{"Session cookies are deleted automatically when you close your browser.", none},
		{"We set a preference cookie that remembers your language and display settings.", none},
		{"Our load-balancing cookies route your requests to the same server during your visit.", none},
		{"Security cookies help us detect fraudulent login attempts and protect your account.", none},
		{"Essential cookies are required for the website to function and cannot be switched off in our systems.", none},
		{"We use a session cookie named PHPSESSID to process your signup; it holds a random string.", none},
		{"Local storage in your browser keeps you signed in between visits to the dashboard.", none},
		// the service's own cookies and the controls over them
		{"We use cookies and similar technologies to improve our services.", none},
		{"You can manage your cookie preferences at any time in our cookie settings.", none},
		{"We use strictly necessary cookies to run the site and analytics cookies to count visits.", none},
		// tracking
		{"We use advertising cookies to show you ads for our products on other websites.", found},
		{"Our partners place third-party cookies and web beacons to measure the performance of their campaigns.", found},
		{"We use Google Analytics to understand how visitors use our website.", found},
		{"Advertising networks may collect your advertising identifier to serve interest-based ads across apps.", found},
		{"We use the Meta Pixel on our checkout page to measure conversions from our ads.", found},
		{"Analytics providers such as Mixpanel receive information about the features you use.", found},
		{"Our app contains SDKs from ad partners that collect device identifiers for retargeting.", found},
		// negated
		{"We do not use advertising cookies or any other tracking technologies.", good},
		{"We never use third-party cookies.", good},
		{"We only use strictly necessary cookies; we do not use analytics or advertising cookies.", good},
		{"We honor Do Not Track signals and the Global Privacy Control.", good},
	} {
		got := privacyFindings(t, c.text)["tracking"]
		switch c.want {
		case none:
			if len(got) != 0 {
				t.Errorf("%q: tracking %v, want none (the service's own storage)", c.text, got)
			}
		case found:
			if len(got) == 0 || slices.Contains(got, SeverityGood) {
				t.Errorf("%q: tracking %v, want a tracking finding that is not good", c.text, got)
			}
		case good:
			if !slices.Contains(got, SeverityGood) || slices.Contains(got, SeverityBad) {
				t.Errorf("%q: tracking %v, want good and not bad", c.text, got)
			}
		}
	}
}

// The cookies and similar storage a service sets itself are first-party
// collection (GUIDELINES.md under data_collection, round four), whatever
// they are for; a cookie control alone is the user's choice, not collection.
func TestOwnCookiesAreCollection(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"We use cookies and similar technologies to improve our services.", true},
		{"Our website uses cookies to remember your language and to count visits.", true},
		{"We place web beacons in our emails to see whether you opened them.", true},
		{"You can delete cookies in your browser settings at any time.", false},
	} {
		if got := len(privacyFindings(t, c.text)["data_collection"]) > 0; got != c.want {
			t.Errorf("%q: data collection %v, want %v", c.text, got, c.want)
		}
	}
}

// The wordings policies use to say what they collect, from whom and what
// for, without naming a data type, are data collection; what is not
// collected from children is the children's clause alone.
func TestCollectionWordings(t *testing.T) {
	for _, text := range []string{
		"The information we collect includes the pages you visit and the links you click.",
		"When you contact our support team, we receive the contents of your message.",
		"Certain technical information is automatically collected when you visit the site.",
		"We may gather information about the way you interact with our newsletters.",
		"We obtain information about you from our business partners and from publicly available sources.",
		"Internet or other electronic network activity information, such as browsing history and search history.",
		"We use the information we collect to operate, maintain and improve the service.",
		"Purpose: sending you our newsletter and customising its content.",
	} {
		if got := privacyFindings(t, text); len(got["data_collection"]) == 0 {
			t.Errorf("%q: findings %v, want data_collection", text, got)
		}
	}
	got := privacyFindings(t, "We do not knowingly collect personal information from children under 13.")
	if len(got["data_collection"]) != 0 || len(got["children"]) == 0 {
		t.Errorf("children's clause: findings %v, want children and no data_collection", got)
	}
}
