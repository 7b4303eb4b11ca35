package analyze

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ToS;DR's rule at its boundaries, with its own thresholds and with ours.
func TestLetterRule(t *testing.T) {
	b := func(good, bad, blocker int) Basis {
		return Basis{Good: good, Bad: bad, Blocker: blocker, Balance: good - bad - 3*blocker}
	}
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
		{b(15, 0, 0), GradeThresholds, "A"},
		{b(7, 8, 0), GradeThresholds, "B"},  // -1
		{b(5, 10, 0), GradeThresholds, "B"}, // -5: not below -5
		{b(5, 11, 0), GradeThresholds, "C"}, // -6
		{b(2, 14, 0), GradeThresholds, "C"}, // -12: not below -12
		{b(2, 15, 0), GradeThresholds, "E"}, // -13
		{b(12, 2, 1), GradeThresholds, "D"}, // +7, a blocker
		{b(3, 11, 1), GradeThresholds, "D"}, // -11: not below -12, and a blocker
		{b(3, 13, 1), GradeThresholds, "E"}, // -13 on 17 rated cases
		// fewer rated cases: the thresholds shrink in proportion (at least 4 counted)
		{b(0, 1, 0), GradeThresholds, "B"}, // 4/15: -3.2 and -1.33
		{b(0, 2, 0), GradeThresholds, "C"}, // -2 < -1.33
		{b(0, 4, 0), GradeThresholds, "E"}, // -4 < -3.2
		{b(2, 0, 0), GradeThresholds, "A"}, // no bad case
		{b(0, 5, 0), GradeThresholds, "E"}, // 5/15: -4 and -1.67; five bad cases of five
		{b(5, 5, 0), GradeThresholds, "B"}, // 10/15: balance 0
		{b(1, 6, 0), GradeThresholds, "C"}, // 7/15: -5 against -5.6 and -2.33
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
