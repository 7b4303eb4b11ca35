// Package analyze finds potentially unfair clauses and privacy practices in
// terms of service and privacy policies, quotes them with exact code point
// offsets, explains them, grades the document and derives a review checklist.
// An Engine holds the learned models (Load decodes the embedded ones);
// analysis is pure and deterministic: text in, Result out, no I/O and no
// state kept between calls.
package analyze

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// Finding is one clause or practice worth the reader's attention.
type Finding struct {
	Category    string `json:"category"`
	Severity    string `json:"severity"` // blocker | bad | neutral | good
	Title       string `json:"title"`
	Explanation string `json:"explanation"` // why it matters to the reader
	Guidance    string `json:"guidance"`    // what to check, ask or do
	Quote       string `json:"quote"`
	Start       int    `json:"start"` // Unicode code point offsets into the text
	End         int    `json:"end"`
	// Confidence is the calibrated probability that the finding's
	// sentence states its case with its rating (Probability).
	Confidence float64 `json:"confidence"`
	// Case is the ToS;DR case the finding is an instance of ("The service
	// can delete your account without prior notice and without a reason"),
	// empty for a finding of a category alone; its rating is Severity.
	Case string `json:"case,omitempty"`
}

// Result is the analysis of one document.
type Result struct {
	DocumentType string      `json:"documentType"`
	Grade        string      `json:"grade"` // A..E (see Judge); "" for a text that is not a legal document
	Score        int         `json:"score"` // 0..100 (see Judge)
	Basis        Basis       `json:"basis"`
	Cases        []Case      `json:"cases"` // distinct, in order of first appearance
	Findings     []Finding   `json:"findings"`
	Guidance     []string    `json:"guidance"` // review checklist
	Readability  Readability `json:"readability"`
	// Coverage is the share of the text read as clauses (0..1): the letters
	// in sentences, not in headings or fragments.
	Coverage float64 `json:"coverage"`
	// Confidence is how far the grade can be trusted: low | medium | high
	// (see confidence).
	Confidence string `json:"confidence"`
	// Why explains the grade in plain words (Explain).
	Why Why `json:"-"`
}

// Graded reports whether the text got a letter: a text with no sentence
// read as a clause is not a legal document and gets none.
func (r Result) Graded() bool { return r.Grade != "" }

// Options tune an analysis.
type Options struct {
	DocumentType string // "terms" | "privacy" | "other"; the caller detects it
}

// maxChecklist bounds the review checklist.
const maxChecklist = 8

// hit is a category, or a case, decided for one sentence.
type hit struct {
	sent     int
	cat, sev string
	conf     float64
	cas      int     // index into the case model's cases, -1 for a category alone
	over     float32 // a case's margin above its threshold
}

// Analyze segments the text into sentences, classifies each for the eight
// unfair-clause categories (linear model) and the ten privacy categories
// (negation-aware patterns), merges adjacent sentences of the same category
// into one finding (at most 2000 code points each, good ones apart), and grades
// the document. Findings are in document order; at most five neutral and five
// good findings are kept per category, blocker and bad ones are all kept.
//
// Start and End index []rune(text): Unicode code points, where each invalid
// UTF-8 byte counts as one U+FFFD, exactly as a JSON client receives the
// text. Quote == string([]rune(text)[Start:End]) always holds.
//
// With DocumentType "privacy", "we may change this policy" is reported as a
// policy_change_notice rather than as a unilateral change of terms.
func (e *Engine) Analyze(text string, opts Options) Result {
	docType := opts.DocumentType
	if docType == "" {
		docType = "other"
	}
	d := newDoc(text)
	hits := e.sentenceHits(d, docType == "privacy")
	hits = e.keepHits(d, hits, Names(text))
	findings := capMinor(merge(d, hits, e.cd))
	for i := range findings {
		findings[i].Confidence = Probability(findings[i])
	}
	v := Judge(GradeCuts, findings)
	cov, words := coverage(d)
	r := Result{
		DocumentType: docType,
		Grade:        v.Grade,
		Score:        v.Score,
		Basis:        v.Basis,
		Cases:        v.Cases,
		Findings:     phrased(findings, docType),
		Guidance:     checklist(findings, docType),
		Readability:  readability(d),
		Coverage:     cov,
		Confidence:   confidence(docType, cov, words, v, GradeCuts),
		Why:          Explain(v, GradeCuts),
	}
	if !hasClause(d) {
		// nothing to grade: a letter would say the text was read as terms
		r.Grade, r.Score = "", 0
	}
	return r
}

// minClauseWords is the fewest words a sentence needs to be a clause: the
// shortest real ones ("You waive arbitration.") have three; "hi" or "OK"
// is no clause whatever its shape.
const minClauseWords = 3

// hasClause reports whether any sentence of the text reads as a clause
// (not a heading, a link line, a fragment of a word or two): a text
// without one is not a legal document and gets no grade.
func hasClause(d *doc) bool {
	var rs []rune
	for i := range d.spans {
		rs = d.appendRunes(rs[:0], i)
		if len(strings.Fields(string(rs))) >= minClauseWords && sentenceKind(d, i, rs) == KindClause {
			return true
		}
	}
	return false
}

// parallelMin is the number of sentences from which Analyze spreads the
// per-sentence work over the available cores (results stay in order).
const parallelMin = 64

// sentenceHits classifies every sentence (clause classifier, case detector
// and privacy patterns) and every paragraph (privacy detector). Long
// documents are split into contiguous runs of paragraphs worked on
// concurrently; the hits are concatenated in order, so the result is the
// same as a sequential run.
func (e *Engine) sentenceHits(d *doc, privacyDoc bool) []hit {
	paras := paragraphs(d)
	workers := runtime.GOMAXPROCS(0)
	if len(d.spans) < parallelMin || workers < 2 {
		return e.hitsFor(d, paras, privacyDoc)
	}
	workers = min(workers, 8, len(d.spans)/(parallelMin/2))
	parts := make([][]hit, workers)
	// A panic in a worker is raised again in the caller's goroutine, where
	// the service recovers it as that analysis's failure; left in the
	// worker it would end the process.
	panics := make([]any, workers)
	var wg sync.WaitGroup
	np := len(paras) - 1
	for w := range workers {
		lo, hi := w*np/workers, (w+1)*np/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			parts[w] = e.hitsFor(d, paras[lo:hi+1], privacyDoc)
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
	var out []hit
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// hitsFor classifies the sentences of the paragraphs starting at paras[0],
// paras[1], ... (the last entry ends the run). The privacy detector is
// nil in an Engine built without one.
func (e *Engine) hitsFor(d *doc, paras []int, privacyDoc bool) []hit {
	var hits []hit
	var ph []privacyHit
	var ch []caseHit
	var pt paraTokens
	for k := 0; k+1 < len(paras); k++ {
		first := len(hits)
		pt.reset()
		for i := paras[k]; i < paras[k+1]; i++ {
			s := d.sentence(i)
			n := len(hits)
			hits, ph, ch = e.hitsOf(hits, i, s, pt.add(s), privacyDoc, ph, ch)
			hits = e.holdPolarity(hits, n, s, privacyDoc)
		}
		hits = e.holdNotice(d, hits, first, paras[k], paras[k+1])
		if e.pd != nil {
			hits = e.pd.paragraph(d, paras[k], &pt, hits, first)
		}
	}
	return hits
}

// hitsOf appends the hits of one sentence (index i, text s, normalised
// tokens toks): the clause classifier's categories, the privacy
// patterns' and the cases, each case standing for the category hit it
// refines. ph and ch are buffers, given back for the next sentence.
func (e *Engine) hitsOf(hits []hit, i int, s string, toks []string, privacyDoc bool, ph []privacyHit, ch []caseHit) ([]hit, []privacyHit, []caseHit) {
	ph = privacyHits(s, ph[:0])
	n := len(hits)
	var ms [nLabels]float32
	ms, ch = e.clf.scores(s, toks, e.cd, ch[:0])
	// "We may update this privacy policy" is reported as a
	// policy_change_notice, which the patterns grade more finely.
	changeClause := ms[idxChange] >= e.clf.m.Thr[idxChange] && !privacyPolicyChange(ph, s, privacyDoc)
	for j, v := range ms {
		if v >= e.clf.m.Thr[j] && (j != idxChange || changeClause) {
			cat := ClauseLabels[j]
			hits = append(hits, hit{i, cat, clauseSeverity[cat], e.clf.confidence(j, v), -1, 0})
		}
	}
	for _, p := range ph {
		if changeClause && p.cat == "policy_change_notice" && p.sev != SeverityGood {
			continue // already reported as unilateral_change
		}
		hits = append(hits, hit{i, p.cat, p.sev, p.conf, -1, 0})
	}
	return withCases(hits, n, i, ch, e.cd), ph, ch
}

// withCases adds a sentence's case hits to its category hits (those from
// hits[n:]). A case is the finer finding: it replaces the classifier's hit
// of the same category, so "we may close your account with 30 days'
// notice" is the case's good practice, not the category's bad one. The
// privacy patterns read negation and the case detector does not: where a
// pattern and a case of one privacy category disagree on whether the
// practice is good ("we may sell your data" read as "does not sell"), the
// pattern stays and the case goes.
func withCases(hits []hit, n, sent int, ch []caseHit, cd *caseDetector) []hit {
	if len(ch) == 0 {
		return hits
	}
	pattern := map[string]bool{} // privacy category -> the pattern found it good
	for _, h := range hits[n:] {
		if slices.Contains(PrivacyCategories, h.cat) {
			pattern[h.cat] = h.sev == SeverityGood
		}
	}
	byCase := map[string]bool{}
	var cases []hit
	var ruleHit []bool       // cases[k] was found by a rule
	best := map[string]int{} // mapped category -> its case in cases
	for _, c := range ch {
		info := cd.m.Cases[c.idx]
		cat := caseCategory(info)
		if good, ok := pattern[cat]; ok && good != (info.Rating == SeverityGood) {
			continue
		}
		byCase[cat] = true
		h := hit{sent, cat, info.Rating, c.conf, c.idx, c.over}
		// One sentence states one practice of a category: "terminate at any
		// time without notice" is not also "suspend for several reasons".
		// The case furthest above its threshold stands for the category.
		if k, ok := best[cat]; ok && cat != OtherCategory && !(c.rule || ruleHit[k]) {
			if h.over > cases[k].over {
				cases[k], ruleHit[k] = h, c.rule
			}
			continue
		}
		best[cat] = len(cases)
		cases = append(cases, h)
		ruleHit = append(ruleHit, c.rule)
	}
	out := hits[:n]
	for _, h := range hits[n:] {
		if !byCase[h.cat] {
			out = append(out, h)
		}
	}
	return append(out, cases...)
}

// caseCategory is the category a case's findings carry: ours where
// cases.tsv maps the case, else OtherCategory.
func caseCategory(c model.CaseInfo) string {
	if c.Category == "" {
		return OtherCategory
	}
	return c.Category
}

// maxMinorPerCategory bounds the neutral and the good findings of one
// category, or of one case (the first ones in document order are kept);
// blocker and bad findings are never dropped.
const maxMinorPerCategory = 5

func capMinor(fs []Finding) []Finding {
	n := map[[3]string]int{}
	out := fs[:0]
	for _, f := range fs {
		if f.Severity == SeverityNeutral || f.Severity == SeverityGood {
			k := [3]string{f.Category, f.Severity, f.Case}
			if n[k] == maxMinorPerCategory {
				continue
			}
			n[k]++
		}
		out = append(out, f)
	}
	return out
}

// maxMergedRunes bounds a merged finding: a longer run of sentences of one
// category is reported as several findings.
const maxMergedRunes = 2000

// merge joins hits of one category (and case) on consecutive sentences
// into one finding quoting the whole run, at the worst severity in the run.
// Good findings (commitments) run apart from the risky ones, so a promise is
// never hidden inside a warning.
func merge(d *doc, hits []hit, cd *caseDetector) []Finding {
	spans := d.spans
	catOrder := map[string]int{}
	for i, c := range Categories {
		catOrder[c] = i
	}
	good := func(h hit) bool { return h.sev == SeverityGood }
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(catOrder[a.cat], catOrder[b.cat]), cmp.Compare(a.cas, b.cas), cmpBool(good(a), good(b)), cmp.Compare(a.sent, b.sent), cmp.Compare(SeverityRank(a.sev), SeverityRank(b.sev)))
	})
	findings := []Finding{}
	for k := 0; k < len(hits); {
		h := hits[k]
		last, conf, sev := h.sent, h.conf, h.sev
		n := k + 1
		for n < len(hits) && hits[n].cat == h.cat && hits[n].cas == h.cas && good(hits[n]) == good(h) && hits[n].sent <= last+1 &&
			spans[hits[n].sent].End-spans[h.sent].Start <= maxMergedRunes {
			last = max(last, hits[n].sent)
			conf = max(conf, hits[n].conf)
			if SeverityRank(hits[n].sev) < SeverityRank(sev) {
				sev = hits[n].sev
			}
			n++
		}
		start, end := spans[h.sent].Start, spans[last].End
		f := Finding{
			Category:   h.cat,
			Severity:   sev,
			Quote:      d.between(h.sent, last),
			Start:      start,
			End:        end,
			Confidence: conf,
		}
		if h.cas >= 0 {
			f.Case = cd.m.Cases[h.cas].Title
		}
		f.Title, f.Explanation, f.Guidance = wording(h.cat, sev, f.Case)
		findings = append(findings, f)
		k = n
	}
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(SeverityRank(a.Severity), SeverityRank(b.Severity)), cmp.Compare(catOrder[a.Category], catOrder[b.Category]), cmp.Compare(a.End, b.End), cmp.Compare(a.Case, b.Case))
	})
	return findings
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// checklist derives the review checklist: one item per category with a
// blocker, bad or neutral finding (worst first), then general advice, both
// phrased for docType (guidance.go).
func checklist(findings []Finding, docType string) []string {
	type item struct {
		rank int
		pos  int
		text string
	}
	seen := map[string]bool{}
	var items []item
	for _, f := range findings {
		if f.Severity == SeverityGood {
			continue
		}
		t := checkLine(f.Category, f.Severity, docType)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		items = append(items, item{SeverityRank(f.Severity), f.Start, t})
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.pos, b.pos))
	})
	out := []string{}
	for _, it := range items {
		if len(out) == maxChecklist-1 {
			break
		}
		out = append(out, it.text)
	}
	return append(out, closingLine(docType, len(items) > 0))
}

// String returns a short description of a finding (for logs and the CLI).
func (f Finding) String() string {
	return "[" + f.Severity + "] " + f.Category + ": " + f.Title
}
