package analyze

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeywordIndexFindsTheListsWithAKeyword(t *testing.T) {
	x := newKeywordIndex([][]string{{"cookie", "sell"}, {"delet", "x"}, {"sell", "track"}})
	for _, c := range []struct {
		text string
		want uint32
	}{
		{"we use cookies", 0b001},
		{"we do not sell data", 0b101},       // one keyword in two lists
		{"you may delete it", 0b010},         // inside a word
		{"we track", 0b100},                  // at the very end
		{"a box", 0b010},                     // a one-byte keyword
		{"tracks cookies deleted", 0b111},    // every list
		{"nothing of note here", 0},          // none
		{"trac", 0},                          // a keyword cut by the text's end
		{"", 0},                              // empty
		{"selective tracing of cook", 0b000}, // prefixes of keywords only
		{"sel sell", 0b101},                  // a false start then the keyword
	} {
		if got := x.find(c.text); got != c.want {
			t.Errorf("find(%q) = %03b, want %03b", c.text, got, c.want)
		}
	}
}

func TestKeywordIndexTakesAtMost32Lists(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("33 lists did not panic: their bits would wrap")
		}
	}()
	newKeywordIndex(make([][]string, 33))
}

// gateSentences are the sentences the gates are checked on: the golden
// documents' and every labelled privacy paragraph's, lower-cased as the
// patterns read them.
func gateSentences(t *testing.T) []string {
	t.Helper()
	var texts []string
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		texts = append(texts, mustRead(t, f))
	}
	for _, f := range []string{"labels.jsonl", "fresh.jsonl"} {
		for _, line := range strings.Split(strings.TrimSpace(mustRead(t, filepath.Join("testdata", "privacy", f))), "\n") {
			var p struct{ Text string }
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, p.Text)
		}
	}
	var lows []string
	for _, text := range texts {
		d := newDoc(text)
		for i := range d.spans {
			lows = append(lows, lowerText(d, i, i))
		}
	}
	return lows
}

// The one-pass pre-filter passes exactly the sentences the categories'
// keyword lists do, and a rule's gate never hides a sentence its pattern
// matches: the gates make the patterns cheaper, never different.
func TestPrivacyGatesNeverHideAMatch(t *testing.T) {
	lows := gateSentences(t)
	if len(lows) < 4000 {
		t.Fatalf("%d sentences: the labelled paragraphs are missing", len(lows))
	}
	for _, low := range lows {
		pre := privacyPre.find(low)
		for i, pc := range privacyCats {
			if got, want := pre&(1<<i) != 0, containsAny(low, pc.pre); got != want {
				t.Errorf("%s pre-filter: index %v, keywords %v on %q", pc.name, got, want, low)
			}
			for k, ru := range pc.rules {
				if ru.gate != nil && !ru.gate(low) && ru.re.MatchString(low) {
					t.Errorf("%s rule %d: gate hides a match in %q", pc.name, k, low)
				}
			}
		}
		for k, p := range trackingTech {
			if !containsAny(low, p.kw) && p.re.MatchString(low) {
				t.Errorf("trackingTech %d: keywords hide a match in %q", k, low)
			}
		}
	}
}

func TestStatesTrackingNamesThirdPartiesOrOtherSites(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"we use cookies to improve our services.", false},                        // the service's own cookies
		{"session cookies keep you logged in.", false},                            // functional only
		{"strictly necessary cookies and google analytics measure visits.", true}, // beside a third party's analytics
		{"you can manage your cookie settings at any time.", false},               // a control over the service's own
		{"we do not use advertising cookies.", true},                              // an absence counts
		{"our advertising partners use pixels on this site.", true},               // a technology, no storage word
		{"we keep your invoices for ten years.", false},                           // neither
	} {
		low := strings.ToLower(c.text)
		if got := statesTracking(low); got != c.want {
			t.Errorf("statesTracking(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
