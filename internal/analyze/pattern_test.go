package analyze

import (
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// patternTexts are the texts the patterns read: the sentences of the
// testdata documents and of a sample of the corpus, as written, lower-cased
// (the privacy patterns, the readings) and as the case rules' words.
func patternTexts(t *testing.T) []string {
	var docs []string
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		docs = append(docs, mustRead(t, f))
	}
	for i, d := range corpusDocs(t) {
		if i%100 == 0 {
			docs = append(docs, d.Text)
		}
	}
	var out []string
	for _, text := range docs {
		d := newDoc(text)
		for i := range d.spans {
			s := d.sentence(i)
			out = append(out, s, strings.ToLower(quoteFolder.Replace(s)), words(Normalize(s)))
		}
	}
	return append(out, "", "we", "\xff\xfe arbitration \xff", "binding arbitration", "(?i)")
}

// TestPatternsMatchAsRegexps: every pattern finds what its regexp finds,
// on every text the analysis gives it, wherever its pre-check leaves
// alternatives out.
func TestPatternsMatchAsRegexps(t *testing.T) {
	if len(patterns) < 100 {
		t.Fatalf("%d patterns registered", len(patterns))
	}
	texts := patternTexts(t)
	if testing.Short() {
		texts = texts[:len(texts)/10]
	}
	cut := 0
	for _, p := range patterns {
		re := p.Regexp
		for _, s := range texts {
			if p.alts == nil || p.mask(s) == 1<<len(p.alts)-1 {
				continue // the whole regexp is what runs
			}
			cut++
			if got, want := p.MatchString(s), re.MatchString(s); got != want {
				t.Fatalf("%s on %q: MatchString %v, regexp %v", re, s, got, want)
			}
			if !re.MatchString(s) {
				continue
			}
			if got, want := p.FindStringIndex(s), re.FindStringIndex(s); !slices.Equal(got, want) {
				t.Fatalf("%s on %q: FindStringIndex %v, regexp %v", re, s, got, want)
			}
			if got, want := p.FindAllStringIndex(s, -1), re.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s on %q: FindAllStringIndex %v, regexp %v", re, s, got, want)
			}
			if got, want := p.ReplaceAllString(s, "<$0>"), re.ReplaceAllString(s, "<$0>"); got != want {
				t.Fatalf("%s on %q: ReplaceAllString %q, regexp %q", re, s, got, want)
			}
		}
	}
	if cut == 0 {
		t.Fatal("no pre-check ever left an alternative out")
	}
}

func TestRequiredLiterals(t *testing.T) {
	for _, c := range []struct {
		re   string
		want []string // nil: nothing to check
	}{
		{`\bbinding arbitration\b`, []string{"binding arbitration"}},
		{`\b(sell|sells|selling|rent)\b`, []string{"sell", "rent"}},
		{`\bsub-?licens\w*\b`, []string{"sub-licens", "sublicens"}},
		{`\b(not|never)\s+(\w+\s+){0,3}(sell|share)`, []string{"sell", "share"}},
		{`(a|b)c`, []string{"ac", "bc"}},
		{`\w+ing`, []string{"ing"}},
		{`.`, nil},
		{`\bx\b|\bfoo`, nil},
		{`(?i)privacy`, nil},
	} {
		re, err := syntax.Parse(c.re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := required(re.Simplify())
		if !ok {
			got = nil
		}
		slices.Sort(got)
		slices.Sort(c.want)
		if !slices.Equal(got, c.want) {
			t.Errorf("required(%s) = %q, want %q", c.re, got, c.want)
		}
	}
}

func TestSplitAlternation(t *testing.T) {
	for pat, want := range map[string][]string{
		`a|b`:                  {"a", "b"},
		`(a|b)|c`:              {"(a|b)", "c"},
		`[|(]x|\|y|\(z`:        {"[|(]x", `\|y`, `\(z`},
		`[]|]a|b`:              {"[]|]a", "b"},
		`[^]|]a|[[:alpha:]|]b`: {"[^]|]a", "[[:alpha:]|]b"},
		`abc`:                  {"abc"},
	} {
		if got := splitAlternation(pat); !slices.Equal(got, want) {
			t.Errorf("splitAlternation(%s) = %q, want %q", pat, got, want)
		}
		// the parts joined are the pattern
		if strings.Join(want, "|") != pat {
			t.Errorf("test case %s", pat)
		}
	}
	// a pattern of inline flags past its start is run whole
	if p := newPattern(`a(?i)b|c`); p.alts != nil || !p.MatchString("C") {
		t.Errorf("a(?i)b|c: alts %q", p.alts)
	}
	if p := newPattern(`(?i)ab|cd`); !p.MatchString("CD") || !p.MatchString("Ab") {
		t.Error("(?i)ab|cd lost its flag")
	}
}
