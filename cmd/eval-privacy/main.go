// Command eval-privacy scores the privacy findings paragraph by paragraph
// against the labelled paragraphs of internal/analyze/testdata/privacy.
//
// Each labelled paragraph is analyzed alone (analyze.Analyze, document type
// "privacy"; a heading merged into the paragraph is its only context), and
// the paragraph counts as found for a category when any finding carries it,
// whatever its severity (patterns and ToS;DR cases mapped to the category
// alike). Beside it, in the same run, a plain keyword list: a paragraph is
// found for a category when it contains one of the category's words. Neither
// learns from these labels, so nothing is cross-validated here.
//
//	go run ./cmd/eval-privacy
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

func main() {
	labels := flag.String("labels", "internal/analyze/testdata/privacy/labels.jsonl", "labelled paragraphs")
	sample := flag.String("sample", "", "print the unlabelled sample drawn from this corpus file (documents.jsonl.gz) and exit")
	flag.Parse()
	var err error
	if *sample != "" {
		err = writeSample(os.Stdout, *sample)
	} else {
		err = run(os.Stdout, *labels)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-privacy:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, path string) error {
	ps, err := readLabels(path)
	if err != nil {
		return err
	}
	policies := map[string]bool{}
	for _, p := range ps {
		policies[p.Source] = true
	}
	fmt.Fprintf(w, "%d paragraphs of %d privacy policies, single annotator (%s)\n\n", len(ps), len(policies), path)
	score(w, "analyzer (analyze.Analyze per paragraph)", ps, analyzerLabels)
	fmt.Fprintln(w)
	score(w, "keyword baseline", ps, keywordLabels)
	return nil
}

func readLabels(path string) ([]paragraph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ps []paragraph
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var p paragraph
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		for _, l := range p.Labels {
			if !slices.Contains(analyze.PrivacyCategories, l) {
				return nil, fmt.Errorf("%s:%d: unknown category %q", path, n, l)
			}
		}
		ps = append(ps, p)
	}
	return ps, sc.Err()
}

// analyzerLabels is the set of privacy categories the analyzer finds in text.
func analyzerLabels(text string) []string {
	var out []string
	for _, f := range analyze.Analyze(text, analyze.Options{DocumentType: "privacy"}).Findings {
		if slices.Contains(analyze.PrivacyCategories, f.Category) && !slices.Contains(out, f.Category) {
			out = append(out, f.Category)
		}
	}
	return out
}

// keywords is the baseline: words a reader would search for, written once
// from the category names and the guidelines, not tuned on the labels.
var keywords = map[string][]string{
	"data_collection":        {"collect", "we receive", "we obtain", "information you provide", "we process", "we use your", "we use the information", "we use personal"},
	"third_party_sharing":    {"share", "disclose", "third part", "service provider", "affiliate", "partners"},
	"data_sale":              {"sell", "sale of", "sold", "rent"},
	"retention":              {"retain", "retention", "how long", "as long as", "delete", "keep your"},
	"tracking":               {"cookie", "beacon", "pixel", "tracking", "analytics", "advertis", "do not track"},
	"children":               {"child", "under 13", "under the age", "minor", "parent"},
	"international_transfer": {"transfer", "outside", "countries", "united states", "international", "standard contractual"},
	"user_rights":            {"right to", "opt out", "opt-out", "unsubscribe", "access", "correct", "delete", "withdraw", "request"},
	"security":               {"secur", "encrypt", "safeguard", "unauthori", "protect your"},
	"policy_change_notice":   {"change", "update", "modif", "revis"},
}

func keywordLabels(text string) []string {
	low := strings.ToLower(text)
	var out []string
	for _, c := range analyze.PrivacyCategories {
		for _, k := range keywords[c] {
			if strings.Contains(low, k) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

type counts struct{ tp, fp, fn int }

func (c counts) prf() (p, r, f float64) {
	if c.tp+c.fp > 0 {
		p = float64(c.tp) / float64(c.tp+c.fp)
	}
	if c.tp+c.fn > 0 {
		r = float64(c.tp) / float64(c.tp+c.fn)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

// tally compares predicted with gold labels, paragraph by paragraph.
func tally(ps []paragraph, predict func(string) []string) map[string]*counts {
	by := map[string]*counts{}
	for _, c := range analyze.PrivacyCategories {
		by[c] = &counts{}
	}
	for _, p := range ps {
		got := predict(p.Text)
		for _, c := range analyze.PrivacyCategories {
			g, w := slices.Contains(got, c), slices.Contains(p.Labels, c)
			switch {
			case g && w:
				by[c].tp++
			case g:
				by[c].fp++
			case w:
				by[c].fn++
			}
		}
	}
	return by
}

func score(w io.Writer, name string, ps []paragraph, predict func(string) []string) {
	by := tally(ps, predict)
	fmt.Fprintf(w, "%s\n%-24s %5s %5s %5s %5s\n", name, "category", "P", "R", "F1", "gold")
	var micro counts
	var macro float64
	for _, c := range analyze.PrivacyCategories {
		k := by[c]
		p, r, f := k.prf()
		fmt.Fprintf(w, "%-24s %5.2f %5.2f %5.2f %5d\n", c, p, r, f, k.tp+k.fn)
		micro.tp, micro.fp, micro.fn = micro.tp+k.tp, micro.fp+k.fp, micro.fn+k.fn
		macro += f
	}
	p, r, f := micro.prf()
	fmt.Fprintf(w, "%-24s %5.2f %5.2f %5.2f\n", "micro", p, r, f)
	fmt.Fprintf(w, "%-24s %5s %5s %5.2f\n", "macro (mean F1)", "", "", macro/float64(len(analyze.PrivacyCategories)))
}
