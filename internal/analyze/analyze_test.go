package analyze

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

func checkInvariants(t *testing.T, text string, r Result) {
	t.Helper()
	rs := []rune(text)
	seen := map[[4]any]bool{}
	for _, f := range r.Findings {
		if f.Start < 0 || f.End > len(rs) || f.Start >= f.End {
			t.Fatalf("bad offsets %d..%d (len %d): %+v", f.Start, f.End, len(rs), f)
		}
		if got := string(rs[f.Start:f.End]); got != f.Quote {
			t.Fatalf("quote mismatch at %d..%d: got %q want %q", f.Start, f.End, got, f.Quote)
		}
		k := [4]any{f.Category, f.Case, f.Start, f.End}
		if seen[k] {
			t.Fatalf("duplicate finding %v", k)
		}
		seen[k] = true
		if f.Title == "" || f.Explanation == "" || f.Guidance == "" {
			t.Fatalf("finding without wording: %+v", f)
		}
		if !slices.Contains(Categories, f.Category) {
			t.Fatalf("unknown category %q", f.Category)
		}
		if f.Confidence < 0 || f.Confidence > 1 {
			t.Fatalf("confidence out of range: %v", f.Confidence)
		}
	}
	// a text with no clause gets no grade (Graded), anything else A to E
	if r.Score < 0 || r.Score > 100 || r.Graded() && (!strings.Contains("ABCDE", r.Grade) || len(r.Grade) != 1) || !r.Graded() && r.Score != 0 {
		t.Fatalf("bad grade %q score %d", r.Grade, r.Score)
	}
}

func categories(r Result, sev ...string) map[string]bool {
	m := map[string]bool{}
	for _, f := range r.Findings {
		if len(sev) == 0 || slices.Contains(sev, f.Severity) {
			m[f.Category] = true
		}
	}
	return m
}

const unfairTerms = `ACME TERMS OF SERVICE

1. Acceptance. By accessing or using the Service you agree to be bound by these Terms.

2. Changes. We reserve the right to modify these Terms at any time, at our sole discretion and without notice. Your continued use of the Service after changes are posted constitutes your acceptance of the new Terms.

3. Termination. We may suspend or terminate your account at any time, for any reason or no reason, without notice or liability to you.

4. Limitation of liability. To the maximum extent permitted by law, in no event shall Acme Inc. be liable for any indirect, incidental, special or consequential damages, or for any loss of data or profits, arising out of your use of the Service.

5. Arbitration. Any dispute arising out of these Terms shall be resolved exclusively by final and binding arbitration under the rules of the American Arbitration Association, and you waive any right to participate in a class action.

6. Governing law. These Terms are governed by and construed in accordance with the laws of the State of California, without regard to its conflict of law provisions.
`

func TestUnfairTermsGradeAndCategories(t *testing.T) {
	r := engine(t).Analyze(unfairTerms, Options{DocumentType: "terms"})
	checkInvariants(t, unfairTerms, r)
	// Every case it counts is bad: the contract's example grades C or
	// worse (its four bad cases, each weighed by how likely it is, weigh
	// about two, short of D's cut for a full document).
	if r.Grade < "C" || r.Basis.Good != 0 {
		t.Errorf("grade = %s (score %d, basis %+v), want C to E and no good case", r.Grade, r.Score, r.Basis)
	}
	got := categories(r)
	for _, c := range []string{"arbitration", "unilateral_change", "unilateral_termination", "limitation_of_liability", "choice_of_law"} {
		if !got[c] {
			t.Errorf("category %s not found; got %v", c, got)
		}
	}
	if len(r.Guidance) == 0 {
		t.Error("no checklist")
	}
}

const benignPrivacy = `Privacy Notice

We collect only the information you give us when you create an account: your name and email address.

We do not sell your personal information, and we never share it with advertisers.

We keep your data only while your account is open and delete it within 30 days after you close your account.

You have the right to access, correct and delete your personal data at any time from the settings page.

We protect your data with encryption in transit and at rest.

We will notify you by email at least 30 days before any material change to this notice takes effect.

Our service is not directed to children under 13 and we do not knowingly collect their data.
`

func TestBenignPrivacy(t *testing.T) {
	r := engine(t).Analyze(benignPrivacy, Options{DocumentType: "privacy"})
	checkInvariants(t, benignPrivacy, r)
	if r.Grade > "C" {
		t.Errorf("grade = %s (score %d), want A..C", r.Grade, r.Score)
	}
	for _, f := range r.Findings {
		if f.Severity == SeverityBad || f.Severity == SeverityBlocker {
			t.Errorf("unexpected %s finding %s: %q", f.Severity, f.Category, f.Quote)
		}
	}
	good := categories(r, SeverityGood)
	for _, c := range []string{"data_sale", "user_rights", "security", "policy_change_notice"} {
		if !good[c] {
			t.Errorf("expected good %s finding; got %v", c, good)
		}
	}
}

func TestNegation(t *testing.T) {
	cases := []struct {
		text, cat, sev string
		typ            string
	}{
		{"We may change these Terms at any time without notice.", "unilateral_change", SeverityBad, "terms"},
		{"We may buy or sell assets, and your information may be transferred to the acquirer in a merger.", "third_party_sharing", SeverityNeutral, ""},
		{"We do not knowingly collect, use, disclose, sell, or share information from children.", "data_sale", SeverityGood, ""},
		{"You can opt out of sharing your data for targeted advertising.", "user_rights", SeverityGood, ""},
		{"We do not sell your personal information.", "data_sale", SeverityGood, ""},
		{"We will never sell or rent your data to anyone.", "data_sale", SeverityGood, ""},
		{"We may sell your personal information to third parties.", "data_sale", SeverityBlocker, ""},
		{"We may share your information with our advertising partners.", "third_party_sharing", SeverityBad, ""},
		{"We do not share your personal information with advertisers.", "third_party_sharing", SeverityGood, ""},
		{"We may change this policy at any time without notice.", "policy_change_notice", SeverityBad, ""},
		{"Please check this page periodically for updates to this policy.", "policy_change_notice", SeverityBad, ""},
		{"We will notify you by email before changes to this policy take effect.", "policy_change_notice", SeverityGood, ""},
		{"You may opt out of marketing emails at any time.", "user_rights", SeverityGood, ""},
		{"We retain your information indefinitely.", "retention", SeverityBad, ""},
	}
	for _, c := range cases {
		typ := c.typ
		if typ == "" {
			typ = "privacy"
		}
		r := engine(t).Analyze(c.text, Options{DocumentType: typ})
		checkInvariants(t, c.text, r)
		found := false
		for _, f := range r.Findings {
			if f.Category == c.cat {
				found = true
				if f.Severity != c.sev {
					t.Errorf("%q: %s severity %s, want %s", c.text, c.cat, f.Severity, c.sev)
				}
			}
		}
		if !found {
			t.Errorf("%q: no %s finding", c.text, c.cat)
		}
	}
}

func TestOffsetsMultibyte(t *testing.T) {
	texts := []string{
		"Überblick 🎉🎉 — Café Straße.\n\nWe may sell your personal information to data brokers 💰. We may terminate your account at any time without notice 🚫.\n\n日本語のテキスト。これは文です！\nYou agree that these terms are governed by the laws of England 🇬🇧.",
		"Ünïcödé 👩‍👩‍👧‍👦 family emoji. We may share your data with advertising partners.",
		"\u00a0\u200b  We use cookies and web beacons for targeted advertising.\r\n\r\nWe may remove any content at our sole discretion.",
	}
	for _, text := range texts {
		r := engine(t).Analyze(text, Options{})
		checkInvariants(t, text, r)
		if len(r.Findings) == 0 {
			t.Errorf("no findings in %q", text)
		}
	}
}

func TestSentences(t *testing.T) {
	text := "1. Introduction\nThese Terms (e.g. this one) apply to Acme Inc. and its affiliates. See Section 1.2 for details.\n\n- First item\n- Second item\nA wrapped line that continues\nhere on the next line. Dr. Smith agrees!  Done?"
	want := []string{
		"1. Introduction",
		"These Terms (e.g. this one) apply to Acme Inc. and its affiliates.",
		"See Section 1.2 for details.",
		"- First item",
		"- Second item",
		"A wrapped line that continues\nhere on the next line.",
		"Dr. Smith agrees!",
		"Done?",
	}
	rs := []rune(text)
	var got []string
	for _, sp := range Sentences(text) {
		got = append(got, string(rs[sp.Start:sp.End]))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Sentences:\n got %q\nwant %q", got, want)
	}
	// an emoji between sentences does not glue them together
	text = "Disputes are heard in Zürich. 👨‍👩‍👧 We may sell your data."
	if n := len(Sentences(text)); n != 2 {
		t.Errorf("%d sentences in %q, want 2", n, text)
	}
}

func TestMergeAdjacent(t *testing.T) {
	text := "We may terminate your account at any time. We may also suspend your access without notice for any reason."
	r := engine(t).Analyze(text, Options{DocumentType: "terms"})
	checkInvariants(t, text, r)
	n := 0
	for _, f := range r.Findings {
		if f.Category == "unilateral_termination" {
			n++
			if f.Quote != text {
				t.Errorf("merged quote = %q", f.Quote)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d unilateral_termination findings, want 1 merged", n)
	}
}

// Adjacent sentences of one category merge whatever their severities, at the
// worst; a commitment (good) stays a finding of its own.
func TestMergeAcrossSeverities(t *testing.T) {
	text := "We may update this Privacy Policy at any time. Changes are effective immediately upon posting, and it is your responsibility to review this policy periodically."
	r := engine(t).Analyze(text, Options{DocumentType: "privacy"})
	checkInvariants(t, text, r)
	var got []Finding
	for _, f := range r.Findings {
		if f.Category == "policy_change_notice" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Quote != text || got[0].Severity != SeverityBad {
		t.Fatalf("policy_change_notice findings = %+v, want one bad finding quoting both sentences", got)
	}
	text = "We do not sell your personal information. We may sell your personal information to data brokers."
	r = engine(t).Analyze(text, Options{DocumentType: "privacy"})
	sev := map[string]bool{}
	for _, f := range r.Findings {
		if f.Category == "data_sale" {
			sev[f.Severity] = true
		}
	}
	if !sev[SeverityGood] || !sev[SeverityBlocker] {
		t.Errorf("data_sale severities = %v, want the good and the blocker apart", sev)
	}
}

func TestMergeBounded(t *testing.T) {
	text := strings.Repeat("We may sell your personal information to data brokers. ", 200)
	r := engine(t).Analyze(text, Options{})
	checkInvariants(t, text, r)
	if len(r.Findings) < 2 {
		t.Fatalf("%d findings, want the run split", len(r.Findings))
	}
	for _, f := range r.Findings {
		if n := f.End - f.Start; n > maxMergedRunes {
			t.Errorf("finding of %d runes", n)
		}
	}
}

func TestEmptyAndDegenerate(t *testing.T) {
	for _, text := range []string{"", " ", "\n\n\n", ".", "...", "!!!", "\xff\xfe", strings.Repeat("a", 10000), strings.Repeat("word. ", 3000)} {
		r := engine(t).Analyze(text, Options{})
		checkInvariants(t, text, r)
		if r.Findings == nil || r.Guidance == nil {
			t.Errorf("nil slices for %q", text[:min(len(text), 20)])
		}
	}
}

func TestClassifySanity(t *testing.T) {
	if engine(t).Notes() == "" {
		t.Error("the clause model has no training notes")
	}
	cases := map[string]string{
		"We may terminate or suspend your account immediately, without prior notice or liability, for any reason whatsoever.":        "unilateral_termination",
		"In no event shall the Company be liable for any indirect, incidental, special, consequential or punitive damages.":          "limitation_of_liability",
		"We reserve the right to change these Terms at any time.":                                                                    "unilateral_change",
		"We may remove or disable any content at any time for any reason, without notice.":                                           "content_removal",
		"By using the Service, you agree to be bound by these Terms.":                                                                "contract_by_using",
		"These Terms shall be governed by the laws of the State of New York.":                                                        "choice_of_law",
		"You agree to submit to the exclusive jurisdiction of the courts located in Santa Clara County, California.":                 "jurisdiction",
		"All disputes will be resolved by binding individual arbitration, and you waive your right to a jury trial or class action.": "arbitration",
	}
	for s, want := range cases {
		if got := engine(t).Classify(s); !slices.Contains(got, want) {
			t.Errorf("engine(t).Classify(%q) = %v, want %s", s, got, want)
		}
	}
	for _, s := range []string{"You can contact us at support@example.com.", "Our offices are open Monday to Friday.", "Thank you for choosing our app!"} {
		if got := engine(t).Classify(s); len(got) != 0 {
			t.Errorf("engine(t).Classify(%q) = %v, want fair", s, got)
		}
	}
	// label order follows ClauseLabels
	got := engine(t).Classify("These terms are governed by the laws of Ireland and you submit to the exclusive jurisdiction of the Irish courts.")
	idx := []int{}
	for _, g := range got {
		idx = append(idx, slices.Index(ClauseLabels, g))
	}
	if !slices.IsSorted(idx) {
		t.Errorf("labels not in LexGLUE order: %v", got)
	}
}

func TestNormalize(t *testing.T) {
	got := strings.Join(Normalize(`You DON'T own "the Service" (e.g. Acme Inc.'s apps), users' data; ok.`), " ")
	want := "you do n't own the service ( e.g. acme inc. 's apps ) , users data ; ok ."
	if got != want {
		t.Errorf("Normalize = %q\nwant        %q", got, want)
	}
	// idempotent on the training data's tokenisation
	tok := "we do n't claim ownership of your content ( e.g. photos ) , and you 're responsible ."
	if got := strings.Join(Normalize(tok), " "); got != tok {
		t.Errorf("Normalize(tokenised) = %q", got)
	}
}

func TestSyllables(t *testing.T) {
	for w, n := range map[string]int{"the": 1, "table": 2, "service": 2, "agreement": 3, "liability": 5, "terminate": 3, "cookies": 2, "used": 1, "wanted": 2, "privacy": 3, "information": 4, "a": 1, "2026": 1, "Ed's": 1, "es's": 1} {
		if got := Syllables(w); got != n {
			t.Errorf("Syllables(%q) = %d, want %d", w, got, n)
		}
	}
	r := engine(t).Analyze("The cat sat on the mat. It was a good day.", Options{})
	if r.Readability.FleschKincaidGrade > 3 || r.Readability.ReadingMinutes <= 0 {
		t.Errorf("readability = %+v", r.Readability)
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := json.Marshal(engine(t).Analyze(unfairTerms+benignPrivacy, Options{}))
	b, _ := json.Marshal(engine(t).Analyze(unfairTerms+benignPrivacy, Options{}))
	if string(a) != string(b) {
		t.Error("Analyze is not deterministic")
	}
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			typ := "terms"
			if strings.Contains(f, "privacy") {
				typ = "privacy"
			}
			r := engine(t).Analyze(string(b), Options{DocumentType: typ})
			checkInvariants(t, string(b), r)
			got, _ := json.MarshalIndent(r, "", "  ")
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(f), ".txt")+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("analysis of %s differs from %s (run go test ./internal/analyze -run TestGolden -update and review the diff)", f, golden)
			}
		})
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{unfairTerms, benignPrivacy, "", "a. b. c.", "1.\n\n2.", "日本語。🎉 We may sell your data.", "\xff\xfe\xfd", "(((", "e.g. i.e. Inc. U.S."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := engine(t).Analyze(s, Options{})
		if !utf8.ValidString(s) {
			// offsets are into the code points Go decodes ([]rune), which is
			// what a JSON client receives after U+FFFD replacement.
			s = string([]rune(s))
		}
		checkInvariants(t, s, r)
	})
}

func mustRead(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestReservedRightIsNotUserRight(t *testing.T) {
	text := "Acme reserves the right to access the content of your private files for troubleshooting."
	if r := engine(t).Analyze(text, Options{DocumentType: "terms"}); categories(r)["user_rights"] {
		t.Errorf("user_rights finding for the provider's reserved right: %+v", r.Findings)
	}
}

// The same practice with and without notice is a different case, or no
// case, at a different severity.
func TestCasesTellNoticeApart(t *testing.T) {
	for _, c := range []struct {
		without, with string
		cat           string
	}{
		{"We may terminate your account at any time, for any reason, without notice.", "We may close your account after giving you 30 days' notice by email.", "unilateral_termination"},
		{"We may change these Terms at any time without notice.", "We will notify you by email at least 30 days before changes to these Terms take effect.", "unilateral_change"},
	} {
		bad := engine(t).Analyze(c.without, Options{DocumentType: "terms"})
		if len(bad.Cases) == 0 || bad.Cases[0].Rating != SeverityBad || bad.Cases[0].Category != c.cat {
			t.Errorf("%q: cases %+v, want a bad %s case", c.without, bad.Cases, c.cat)
		}
		ok := engine(t).Analyze(c.with, Options{DocumentType: "terms"})
		if ok.Basis.Bad+ok.Basis.Blocker > 0 || slices.ContainsFunc(ok.Findings, func(f Finding) bool { return f.Severity == SeverityBad }) {
			t.Errorf("%q: findings %+v, want nothing bad", c.with, ok.Findings)
		}
	}
}

// A benign privacy policy (access, deletion, no sale, limited retention)
// grades A or B.
func TestBenignPrivacyGrade(t *testing.T) {
	r := engine(t).Analyze(benignPrivacy, Options{DocumentType: "privacy"})
	if r.Grade != "A" && r.Grade != "B" {
		t.Errorf("grade %s, basis %+v, cases %+v", r.Grade, r.Basis, r.Cases)
	}
}

// Documents judged together count each case once, with its likeliest
// finding: two documents with no case in common add up.
func TestJudgeDocumentsTogether(t *testing.T) {
	a := engine(t).Analyze(unfairTerms, Options{DocumentType: "terms"})
	b := engine(t).Analyze(benignPrivacy, Options{DocumentType: "privacy"})
	for _, c := range a.Cases {
		if slices.Contains(b.Cases, c) {
			t.Fatalf("the two documents share %+v; the test wants none shared", c)
		}
	}
	v := Judge(GradeCuts, a.Findings, b.Findings, a.Findings)
	ab, bb := a.Basis, b.Basis
	want := Basis{Good: ab.Good + bb.Good, Neutral: ab.Neutral + bb.Neutral, Bad: ab.Bad + bb.Bad, Blocker: ab.Blocker + bb.Blocker}
	va, vb := Judge(GradeCuts, a.Findings), Judge(GradeCuts, b.Findings)
	want.Balance = int(math.Round(va.Balance + vb.Balance))
	if v.Basis != want || len(v.Cases) != len(a.Cases)+len(b.Cases) {
		t.Errorf("together: basis %+v and %d cases, want %+v and %d", v.Basis, len(v.Cases), want, len(a.Cases)+len(b.Cases))
	}
}
