package analyze

import (
	"slices"
	"strings"
	"sync"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// privacyDetector is the loaded form of the privacy model (written by
// cmd/train, see train.TrainPrivacy): one linear model per
// privacy category over hashed word n-grams.
type privacyDetector struct {
	m    *model.PrivacyModel
	lin  *model.Linear
	pool sync.Pool
}

func newPrivacyDetector(m *model.PrivacyModel) *privacyDetector {
	d := &privacyDetector{m: m, lin: m.Weights.Linear()}
	d.pool.New = func() any { return &model.Scratch{} }
	return d
}

// vagueNeutral are the categories whose neutral patterns ("we collect",
// "retain ... data") are too vague to stand alone: on the labelled
// paragraphs they are right about half the time (precision 0.53 and 0.58,
// eval-privacy's analyzer without the detector; every other category's
// patterns are above 0.75). Their findings stand only where the detector
// agrees. Patterns that decide a severity (a sale, a promise, a refusal)
// always stand.
var vagueNeutral = map[string]bool{"data_collection": true, "retention": true}

// minParagraphWords is the length under which a paragraph is not scored:
// the labelled paragraphs the detector learned from have at least six
// words, and on fewer a handful of features decide alone ("10. Contact
// Questions? Write to support@..." read as a children's clause).
const minParagraphWords = 6

// lowerText is the text from sentence i's start to sentence j's end as the privacy patterns
// read it: lower case, typographic quotes folded.
func lowerText(d *doc, i, j int) string {
	return strings.ToLower(quoteFolder.Replace(d.between(i, j)))
}

// hasWords reports whether toks hold at least n word tokens.
func hasWords(toks []string, n int) bool {
	for _, t := range toks {
		if strings.IndexFunc(t, isWordRune) >= 0 {
			if n--; n == 0 {
				return true
			}
		}
	}
	return n <= 0
}

// paraTokens are the normalised tokens of a paragraph's sentences, in a
// buffer reused from paragraph to paragraph.
type paraTokens struct {
	toks []string
	ends []int // sentence k's tokens end at toks[ends[k]]
	// runes is a sentence's code points, a buffer reused across the
	// paragraphs of one worker
	runes []rune
}

func (p *paraTokens) reset() {
	p.toks, p.ends = p.toks[:0], p.ends[:0]
}

// add appends the tokens of the paragraph's next sentence and returns them.
func (p *paraTokens) add(sentence string) []string {
	start := len(p.toks)
	p.toks = appendTokens(p.toks, sentence)
	p.ends = append(p.ends, len(p.toks))
	return p.toks[start:]
}

// sentence returns the tokens of the paragraph's k-th sentence.
func (p *paraTokens) sentence(k int) []string {
	start := 0
	if k > 0 {
		start = p.ends[k-1]
	}
	return p.toks[start:p.ends[k]]
}

// paragraph adds the privacy detector's hits for one paragraph (its first
// sentence first, its tokens pt, its hits so far hits[from:]). The
// detector decides a category on the whole paragraph, with its heading and
// list items, as its labels were made: a list item "Email address" under
// "Information we collect:" is data collection. The finding quotes the
// sentence that states the practice best (the one of highest margin for
// the category, a heading only when nothing else is there) and any other
// sentence whose own margin reaches the threshold. The model says a
// practice is stated, not whether it is good or bad for the user, so its
// hits are neutral; where a pattern (which reads negation) or a ToS;DR
// case already found the category in a sentence, that finding stands.
func (d *privacyDetector) paragraph(doc *doc, first int, pt *paraTokens, hits []hit, from int) []hit {
	s := d.pool.Get().(*model.Scratch)
	defer d.pool.Put(s)
	margin := d.lin.Margins(pt.toks, s) // until the sentences are scored below
	thr := d.m.Weights.Thr
	var fire []int
	var conf []float64
	for j, v := range margin {
		if v >= thr[j] {
			fire = append(fire, j)
			conf = append(conf, sigmoidConf(4*(v-thr[j])))
		}
	}
	n := len(pt.ends)
	// The paragraph as the patterns read it, and whether it states
	// tracking, are worked out once and only when a category needs them.
	var text string
	lower := func() string {
		if text == "" {
			text = lowerText(doc, first, first+n-1)
		}
		return text
	}
	tracks := -1
	// A tracking finding's sentence must be more than functional storage,
	// whichever source found it: "session cookies keep you logged in" is
	// no tracking practice. A pattern's or the detector's also needs the
	// paragraph to state tracking (a ToS;DR case is its own evidence: "we
	// share your data with advertisers" is its targeted advertising).
	notTracking := func(sent int, cat string, isCase bool) bool {
		if cat != "tracking" {
			return false
		}
		if tracks < 0 && !isCase {
			tracks = 0
			if mentions(cat, lower()) {
				tracks = 1
			}
		}
		return !isCase && tracks == 0 || functionalOnly(lowerText(doc, sent, sent))
	}
	out := hits[:from]
	for _, h := range hits[from:] {
		if notTracking(h.sent, h.cat, h.cas >= 0) {
			continue
		}
		if j := slices.Index(PrivacyCategories, h.cat); j < 0 || h.cas >= 0 || h.sev != SeverityNeutral || !vagueNeutral[h.cat] || h.conf == strongCollection || margin[j] >= thr[j] {
			out = append(out, h)
		}
	}
	hits = out
	if len(fire) == 0 || !hasWords(pt.toks, minParagraphWords) {
		return hits
	}
	margins := make([][]float32, n)
	heading := make([]bool, n)
	body := false
	for k := range n {
		margins[k] = slices.Clone(d.lin.Margins(pt.sentence(k), s))
		if n > 1 {
			pt.runes = doc.appendRunes(pt.runes[:0], first+k)
			heading[k] = isHeading(pt.runes)
		}
		body = body || !heading[k]
	}
	// A change of the terms the classifier found in the paragraph is the
	// same practice as a change of the policy.
	found := func(sent int, cat string) bool {
		return slices.ContainsFunc(hits[from:], func(h hit) bool {
			return h.sent == sent && h.cat == cat || cat == "policy_change_notice" && h.cat == "unilateral_change"
		})
	}
	for f, j := range fire {
		cat := PrivacyCategories[j]
		// What a category's patterns must see in a sentence the paragraph
		// must say too ("children", "under 13"): a children's clause
		// names them, and a short "Contact: write to us" does not.
		if !mentions(cat, lower()) {
			continue
		}
		best := -1
		for k := range n {
			if (heading[k] && body) || (best >= 0 && margins[k][j] <= margins[best][j]) {
				continue
			}
			best = k
		}
		for k := range n {
			if (k == best || margins[k][j] >= thr[j] && !(heading[k] && body)) && !found(first+k, cat) && !notTracking(first+k, cat, false) {
				hits = append(hits, hit{first + k, cat, SeverityNeutral, conf[f], -1, 0})
			}
		}
	}
	return hits
}
