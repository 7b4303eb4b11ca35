package analyze

import (
	"bufio"
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ToS;DR's rule at its boundaries, with its own thresholds and with ours.
func TestLetterRule(t *testing.T) {
	b := func(good, bad, blocker int) Basis {
		return Basis{Good: good, Bad: bad, Blocker: blocker, Balance: good - bad - 3*blocker}
	}
	// the thresholds of an earlier round, shrunk below 15 rated cases, with
	// no D balance (at E's) and with one
	shrunk := Thresholds{EBelow: -12, DBelow: -12, CBelow: -5, Ref: 15, Floor: 4}
	withD := Thresholds{EBelow: -12, DBelow: -9, CBelow: -5, Ref: 15, Floor: 4}
	for _, c := range []struct {
		basis Basis
		t     Thresholds
		want  string
	}{
		{b(0, 0, 0), ToSDRThresholds, "A"},
		{b(3, 0, 0), ToSDRThresholds, "A"},
		{b(3, 1, 0), ToSDRThresholds, "B"},
		{b(0, 4, 0), ToSDRThresholds, "B"},  // balance -4: not below -4
		{b(0, 5, 0), ToSDRThresholds, "C"},  // -5
		{b(0, 10, 0), ToSDRThresholds, "C"}, // -10: not below -10
		{b(0, 11, 0), ToSDRThresholds, "E"}, // -11
		{b(9, 0, 1), ToSDRThresholds, "D"},  // any blocker, balance +6
		{b(0, 7, 1), ToSDRThresholds, "D"},  // -10
		{b(0, 8, 1), ToSDRThresholds, "E"},  // -11
		// ours, for a basis of at least Ref rated cases: -12 and -5
		{b(15, 0, 0), shrunk, "A"},
		{b(7, 8, 0), shrunk, "B"},  // -1
		{b(5, 10, 0), shrunk, "B"}, // -5: not below -5
		{b(5, 11, 0), shrunk, "C"}, // -6
		{b(2, 14, 0), shrunk, "C"}, // -12: not below -12
		{b(2, 15, 0), shrunk, "E"}, // -13
		{b(12, 2, 1), shrunk, "D"}, // +7, a blocker
		{b(3, 11, 1), shrunk, "D"}, // -11: not below -12, and a blocker
		{b(3, 13, 1), shrunk, "E"}, // -13 on a weight of 19
		// fewer rated cases: the thresholds shrink in proportion (at least 4 counted)
		{b(0, 1, 0), shrunk, "B"}, // 4/15: -3.2 and -1.33
		{b(0, 2, 0), shrunk, "C"}, // -2 < -1.33
		{b(0, 4, 0), shrunk, "E"}, // -4 < -3.2
		{b(2, 0, 0), shrunk, "A"}, // no bad case
		{b(0, 5, 0), shrunk, "E"}, // 5/15: -4 and -1.67; five bad cases of five
		{b(5, 5, 0), shrunk, "B"}, // 10/15: balance 0
		{b(1, 6, 0), shrunk, "C"}, // 7/15: -5 against -5.6 and -2.33
		// a D balance: below -9 for a full basis, -0.6 per unit of weight below
		{b(3, 12, 0), withD, "C"}, // -9 on 15: not below -9
		{b(3, 13, 0), withD, "D"}, // -10 < -9
		{b(0, 8, 0), withD, "E"},  // 8/15: -8 < -6.4 (Ref above -EBelow)
		{b(0, 2, 0), withD, "C"},  // 4/15 counted: -2 < -1.33, not below -2.4
		{b(0, 3, 0), withD, "D"},  // -3 < -2.4
		{b(2, 6, 0), withD, "C"},  // 8/15: -4 < -2.67, not below -4.8
		{b(1, 6, 0), withD, "D"},  // 7/15: -5 < -4.2
	} {
		if got := c.basis.Letter(c.t); got != c.want {
			t.Errorf("%+v with %+v: letter %s, want %s", c.basis, c.t, got, c.want)
		}
	}
}

// Every service of dev-grades.jsonl: its counts of approved points give the
// grade ToS;DR's rule gives them.
func TestLetterRuleOnDevServices(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "tosdr", "dev-grades.jsonl"))
	if err != nil {
		t.Fatalf("the dev services are the rule's golden table: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var s struct {
			Service string
			Grade   string
			Counts  map[string]int
		}
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		c := s.Counts
		b := Basis{Good: c["good"], Neutral: c["neutral"], Bad: c["bad"], Blocker: c["blocker"], Balance: c["good"] - c["bad"] - 3*c["blocker"]}
		if got := b.Letter(ToSDRThresholds); got != s.Grade {
			t.Errorf("%s %+v: letter %s, ToS;DR's rule gives %s", s.Service, b, got, s.Grade)
		}
		n++
	}
	if n != 22 {
		t.Errorf("%d dev services, want 22", n)
	}
}

// The score never disagrees with the letter, and rises with the balance
// within a letter.
func TestScoreMonotone(t *testing.T) {
	prev := map[string]int{}
	for bal := -40; bal <= 20; bal++ {
		for _, blocker := range []int{0, 1} {
			for _, bad := range []int{0, 1} {
				b := Basis{Bad: bad, Blocker: blocker, Balance: bal}
				l := b.Letter(GradeThresholds)
				s := b.Score(l, GradeThresholds)
				lo := 80 - 20*int(l[0]-'A')
				if s < lo || s > lo+20 || s > 100 || s < 0 {
					t.Fatalf("%+v: score %d outside %s's band", b, s, l)
				}
				k := l + strconv.Itoa(blocker) + strconv.Itoa(bad)
				if p, ok := prev[k]; ok && s < p {
					t.Fatalf("%+v: score %d below %d at a lower balance", b, s, p)
				}
				prev[k] = s
			}
		}
	}
}

// The grade of cases: distinct titles, rated.
func TestGradeOfCases(t *testing.T) {
	c := func(title, rating string) Case { return Case{Title: title, Rating: rating} }
	grade, score, basis := Grade([]Case{c("a", "good"), c("a", "good"), c("b", "bad"), c("n", "neutral")})
	if basis != (Basis{Good: 1, Neutral: 1, Bad: 1, Balance: 0}) || grade != "B" || score != 70 {
		t.Errorf("Grade = %s %d %+v", grade, score, basis)
	}
}

// checkGradeBasis holds a result to the grade's contract: the basis lists
// exactly the cases of the findings that moved the grade, every bad or
// blocker finding among them, and a blocker never sits under an A or a B.
func checkGradeBasis(t *testing.T, r Result) {
	t.Helper()
	var bad []Finding
	for _, f := range r.Findings {
		if f.Severity == SeverityBad || f.Severity == SeverityBlocker {
			bad = append(bad, f)
		}
	}
	caseOf := func(f Finding) string { return cmp.Or(f.Case, f.Title) }
	for _, f := range bad {
		if !slices.ContainsFunc(r.Cases, func(c Case) bool { return c.Title == caseOf(f) && c.Rating == f.Severity }) {
			t.Errorf("%s finding %q (%q) is not in the basis %+v", f.Severity, f.Title, f.Quote, r.Cases)
		}
	}
	for _, c := range r.Cases {
		shown := slices.ContainsFunc(r.Findings, func(f Finding) bool {
			overlapsBad := slices.ContainsFunc(bad, func(b Finding) bool { return b.Start < f.End && f.Start < b.End })
			return caseOf(f) == c.Title && f.Severity == c.Rating && (f.Case != "" || c.Rating != SeverityGood) &&
				(c.Rating != SeverityGood || !overlapsBad && AdmittedGood(c.Title))
		})
		if !shown {
			t.Errorf("case %+v in the basis stands for no finding that counts", c)
		}
	}
	if r.Basis != BasisOf(r.Cases) {
		t.Errorf("basis %+v, its cases count %+v", r.Basis, BasisOf(r.Cases))
	}
	if r.Basis.Blocker > 0 && r.Grade < "C" {
		t.Errorf("grade %s with %d blocker cases", r.Grade, r.Basis.Blocker)
	}
	for _, c := range r.Cases {
		if c.Rating == SeverityBlocker && !IsDefaultCase(c.Title) && r.Grade < "D" {
			t.Errorf("grade %s with ToS;DR's blocker case %q", r.Grade, c.Title)
		}
	}
	// one sentence is never both a bad and a good case
	for _, f := range r.Findings {
		if f.Severity == SeverityGood && Counts(f, r.Findings) && slices.ContainsFunc(bad, func(b Finding) bool { return b.Start < f.End && f.Start < b.End }) {
			t.Errorf("the good finding %q counts on a bad finding's sentence", f.Title)
		}
	}
}

// The findings the reader sees are the grade's basis: a blocker found by a
// category alone grades C at best, a sentence read as both a bad and a good
// case counts only as the bad one.
func TestGradeFromFindings(t *testing.T) {
	for _, c := range []struct {
		text, best, worst string
		basis             Basis
	}{
		{"We may sell your personal data to anyone.", "C", "E", Basis{Blocker: 1, Balance: -1}},
		// Two cases, both bad: the data goes to third parties, and for targeted ads.
		{"We share your personal information with advertisers.", "D", "D", Basis{Bad: 2, Balance: -2}},
		// also read as "You have the right to leave this service at any time"
		{"We may terminate your account at any time.", "B", "B", Basis{Bad: 1, Balance: -1}},
	} {
		r := engine(t).Analyze(c.text, Options{DocumentType: "terms"})
		checkGradeBasis(t, r)
		if r.Basis != c.basis || r.Grade > c.worst || r.Grade < c.best {
			t.Errorf("%q: grade %s, basis %+v, want %s..%s and %+v", c.text, r.Grade, r.Basis, c.best, c.worst, c.basis)
		}
		if slices.ContainsFunc(r.Cases, func(k Case) bool { return k.Rating == SeverityGood }) {
			t.Errorf("%q: a good case counts: %+v", c.text, r.Cases)
		}
	}
	for _, text := range []string{unfairTerms, benignPrivacy, mustRead(t, filepath.Join("testdata", "terms-streamly.txt")), mustRead(t, filepath.Join("testdata", "privacy-adtech.txt"))} {
		checkGradeBasis(t, engine(t).Analyze(text, Options{DocumentType: "terms"}))
	}
}

// Documents made of clauses drawn at random: adding a paragraph with a bad
// or blocker clause never raises the grade or the score, adding one with a
// good clause never lowers them, and the basis always matches the findings.
func TestGradeMonotoneOverDocuments(t *testing.T) {
	bad := []string{
		"We may sell your personal data to anyone.",
		"We may terminate your account at any time.",
		"We may change these Terms at any time without notice.",
		"We share your personal information with advertisers.",
		"We may suspend or terminate your account for any reason, without notice.",
		"We are not liable for any damages arising from your use of the Service.",
		"We keep your data indefinitely, even after you delete your account.",
		arbitrationTerms,
	}
	good := []string{
		"We do not sell your personal information.",
		"You may close your account at any time.",
		"We will notify you by email at least 30 days before any material change to this notice takes effect.",
		"We delete your data within 30 days after you close your account.",
		"You have the right to access, correct and delete your personal data at any time from the settings page.",
	}
	neutral := []string{
		"We use cookies to remember your preferences.",
		"These Terms are governed by the laws of the State of California.",
		"By using the Service you agree to these Terms.",
	}
	all := slices.Concat(bad, good, neutral)
	rnd := rand.New(rand.NewPCG(21, 1))
	docs := [][]string{{"We may suspend or terminate your account for any reason, without notice."}}
	for range 100 {
		var paras []string
		for range rnd.IntN(12) {
			paras = append(paras, all[rnd.IntN(len(all))])
		}
		docs = append(docs, paras)
	}
	e := engine(t)
	for _, paras := range docs {
		at := rnd.IntN(len(paras) + 1)
		with := func(s string) string {
			return strings.Join(slices.Insert(slices.Clone(paras), at, s), "\n\n")
		}
		base := e.Analyze(with(""), Options{DocumentType: "terms"})
		checkGradeBasis(t, base)
		for _, s := range bad {
			r := e.Analyze(with(s), Options{DocumentType: "terms"})
			checkGradeBasis(t, r)
			if r.Grade < base.Grade || r.Score > base.Score {
				t.Errorf("a bad clause raised %s %d to %s %d:\n%s", base.Grade, base.Score, r.Grade, r.Score, with(s))
			}
		}
		for _, s := range good {
			r := e.Analyze(with(s), Options{DocumentType: "terms"})
			checkGradeBasis(t, r)
			if r.Grade > base.Grade || r.Score < base.Score {
				t.Errorf("a good clause lowered %s %d to %s %d:\n%s", base.Grade, base.Score, r.Grade, r.Score, with(s))
			}
		}
	}
}

// Confidence is low for a short text, a document that is neither terms nor
// a privacy policy, or one mostly not read as clauses; high for a full
// document read almost whole.
func TestConfidence(t *testing.T) {
	long := strings.Repeat(benignPrivacy+"\n", 12)
	headings := strings.Repeat("Home\nPricing\nAbout us\nContact\n\n", 40) + benignPrivacy
	for _, c := range []struct {
		text, docType, want string
	}{
		{"We may sell your personal data to anyone.", "privacy", ConfidenceLow},
		{long, "other", ConfidenceLow},
		{headings, "privacy", ConfidenceLow},
		{benignPrivacy, "privacy", ConfidenceLow},
		{mustRead(t, filepath.Join("testdata", "terms-streamly.txt")), "terms", ConfidenceMedium},
		{long, "privacy", ConfidenceHigh},
	} {
		r := engine(t).Analyze(c.text, Options{DocumentType: c.docType})
		if r.Confidence != c.want || r.Coverage < 0 || r.Coverage > 1 {
			t.Errorf("%.40q (%s): confidence %s, coverage %v, want %s", c.text, c.docType, r.Confidence, r.Coverage, c.want)
		}
	}
	if r := engine(t).Analyze("", Options{}); r.Coverage != 0 || r.Confidence != ConfidenceLow {
		t.Errorf("empty text: coverage %v, confidence %s", r.Coverage, r.Confidence)
	}
}

// Adding a rated case moves the balance by at least one; the shrunk E, D
// and C thresholds move by EBelow/Ref, DBelow/Ref and CBelow/Ref per case,
// so they must not outrun it, or a bad case could lift an E to a D; and the
// thresholds must be in the order of their letters.
func TestThresholdsKeepGradeMonotone(t *testing.T) {
	g := GradeThresholds
	if g.Ref != 0 && -g.EBelow > g.Ref {
		t.Errorf("%+v: a threshold moves more than one per case", g)
	}
	if !(g.EBelow <= g.DBelow && g.DBelow <= g.CBelow && g.CBelow <= 0) {
		t.Errorf("%+v: thresholds out of the letters' order", g)
	}
}

// rated lists distinct cases: good, bad, ToS;DR blocker cases, and blocker
// findings of a category alone (default cases).
func rated(good, bad, blocker, defaultBlocker int) []Case {
	var out []Case
	add := func(n int, rating, prefix string) {
		for i := range n {
			out = append(out, Case{Title: prefix + strconv.Itoa(i), Rating: rating})
		}
	}
	add(good, SeverityGood, "good ")
	add(bad, SeverityBad, "bad ")
	add(blocker, SeverityBlocker, "blocker ")
	if defaultBlocker > 0 {
		out = append(out, Case{Title: "Your personal data may be sold", Rating: SeverityBlocker})
	}
	return out
}

// Short documents grade as a reader expects: bad cases alone D from two
// on (one bad case alone is not enough to judge), a bad case among good
// ones B, a blocker never under C.
func TestSmallDocumentGrades(t *testing.T) {
	for _, c := range []struct {
		name                             string
		good, bad, blocker, defaultBlock int
		want                             string
	}{
		{"nothing found", 0, 0, 0, 0, "A"},
		{"good cases alone", 3, 0, 0, 0, "A"},
		{"one bad case alone", 0, 1, 0, 0, "B"},
		{"two bad cases alone", 0, 2, 0, 0, "D"},
		{"the contract's example: eight bad cases alone", 0, 8, 0, 0, "D"},
		{"more bad cases alone than a full review's E balance", 0, 36, 0, 0, "E"},
		{"one bad among many good", 5, 1, 0, 0, "B"},
		{"as many good as bad", 2, 2, 0, 0, "B"},
		{"three bad, one good", 1, 3, 0, 0, "C"},
		{"eight bad, one good", 1, 8, 0, 0, "D"},
		{"a blocker of a category alone", 0, 0, 0, 1, "C"},
		{"a blocker of a category alone among good cases", 5, 0, 0, 1, "C"},
		{"a ToS;DR blocker alone", 0, 0, 1, 0, "D"},
		{"a ToS;DR blocker among good cases", 10, 0, 1, 0, "D"},
	} {
		if got, _, _ := Grade(rated(c.good, c.bad, c.blocker, c.defaultBlock)); got != c.want {
			t.Errorf("%s: grade %s, want %s (%s)", c.name, got, c.want, Why(rated(c.good, c.bad, c.blocker, c.defaultBlock)))
		}
	}
}

// Over every basis of up to 40 good and 40 bad cases, with and without
// blockers, and every threshold of the eval's grid: one more bad case never
// raises the letter or the score, one more good case never lowers them.
func TestGradeMonotoneOverCases(t *testing.T) {
	grid := []Thresholds{GradeThresholds, ToSDRThresholds,
		{EBelow: -20, DBelow: -20, CBelow: -8, Ref: 20, Floor: 3},
		{EBelow: -40, DBelow: -37, CBelow: -16, Ref: 40, Floor: 3}}
	grade := func(cs []Case, th Thresholds) (string, int) {
		tl := tallyOf(cs)
		l := tl.letter(th)
		return l, tl.Score(l, th)
	}
	for _, th := range grid {
		for good := range 41 {
			for bad := range 41 {
				for _, bl := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {2, 1}} {
					l, s := grade(rated(good, bad, bl[0], bl[1]), th)
					if wl, ws := grade(rated(good, bad+1, bl[0], bl[1]), th); wl < l || ws > s {
						t.Fatalf("%+v: a bad case lifted %d good, %d bad, blockers %v from %s %d to %s %d", th, good, bad, bl, l, s, wl, ws)
					}
					if gl, gs := grade(rated(good+1, bad, bl[0], bl[1]), th); gl > l || gs < s {
						t.Fatalf("%+v: a good case lowered %d good, %d bad, blockers %v from %s %d to %s %d", th, good, bad, bl, l, s, gl, gs)
					}
				}
			}
		}
	}
}
