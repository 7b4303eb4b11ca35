// Command eval-privacy scores the privacy findings paragraph by paragraph
// against the labelled paragraphs of internal/analyze/testdata/privacy.
//
// The learned privacy detector is trained on these labels, so it is
// cross-validated by policy: the policies are dealt into five folds, and
// each fold is scored with a detector trained (train.TrainPrivacy, the
// shipped configuration) on the other folds' paragraphs and on the ToS;DR
// quotes of every service but the fold's. Each paragraph is analyzed alone
// (Engine.Analyze, document type "privacy"; a heading merged into the
// paragraph is its only context), and counts as found for a category when
// any finding carries it, whatever its severity (patterns, the learned
// detector and ToS;DR cases mapped to the category alike). Beside it, in the
// same run: the analyzer without the learned detector (the privacy patterns
// and ToS;DR cases, as before it), and a plain keyword list, neither of
// which learns from the labels.
//
// Then the fresh held-out set (testdata/privacy/fresh.jsonl, see
// sampleFresh): paragraphs of policies of services nothing was tuned on,
// scored once by a detector trained on all the labelled paragraphs. It is a
// measurement only: -dump never writes its errors.
//
// -dump CATEGORY writes the analyzer's disagreements with the labels for
// one category (the cross-validated analyzer's, the one scored first), one
// a line: the labels.jsonl line, FP or FN, what the analyzer found, the
// labels, the text. Read the errors of the paragraphs you tune on only.
//
//	go run ./cmd/eval-privacy -data ../shared/data
//	go run ./cmd/eval-privacy -data ../shared/data -dump data_collection > misses.tsv
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func main() {
	labels := flag.String("labels", "internal/analyze/testdata/privacy/labels.jsonl", "labelled paragraphs")
	fresh := flag.String("fresh", "internal/analyze/testdata/privacy/fresh.jsonl", "the fresh held-out paragraphs (empty: score the labelled paragraphs only)")
	data := flag.String("data", "../shared/data", "directory with tosdr/")
	sample := flag.String("sample", "", "print the unlabelled sample drawn from this corpus file (documents.jsonl.gz) and exit")
	sampleFreshFrom := flag.String("sample-fresh", "", "print the unlabelled fresh sample drawn from this silver documents file (tosdr-silver/documents.jsonl.gz) and exit")
	dump := flag.String("dump", "", "write the analyzer's false positives and negatives of this category instead of the scores")
	flag.Parse()
	var err error
	switch {
	case *sample != "":
		var ps []train.PrivacyParagraph
		if ps, err = samplePolicies(*sample); err == nil {
			err = writeSample(os.Stdout, ps)
		}
	case *sampleFreshFrom != "":
		var old, ps []train.PrivacyParagraph
		if old, err = train.ReadPrivacyLabels(*labels); err == nil {
			if ps, err = sampleFresh(*sampleFreshFrom, old); err == nil {
				err = writeSample(os.Stdout, ps)
			}
		}
	case *dump != "" && !slices.Contains(analyze.PrivacyCategories, *dump):
		err = fmt.Errorf("-dump %q: not a privacy category (%s)", *dump, strings.Join(analyze.PrivacyCategories, ", "))
	default:
		err = run(os.Stdout, *labels, *fresh, *data, *dump)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-privacy:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, path, freshPath, data, dump string) error {
	ps, err := train.ReadPrivacyLabels(path)
	if err != nil {
		return err
	}
	var fresh []train.PrivacyParagraph
	if freshPath != "" && dump == "" {
		if fresh, err = train.ReadPrivacyLabels(freshPath); err != nil {
			return err
		}
	}
	tosdr, err := train.ReadToSDR(filepath.Join(data, "tosdr"))
	if err != nil {
		return err
	}
	ms, err := analyze.Embedded()
	if err != nil {
		return err
	}
	ms.Privacy = nil
	off, err := analyze.New(ms)
	if err != nil {
		return err
	}
	fold := train.GroupFolds(ps, func(p train.PrivacyParagraph) string { return p.Source }, train.PrivacyConfig.Folds)
	withModel := make([][]string, len(ps))
	without := make([][]string, len(ps))
	for k := range train.PrivacyConfig.Folds {
		var rest []train.PrivacyParagraph
		held := map[string]bool{}
		for i, p := range ps {
			if fold[i] == k {
				held[strings.ToLower(p.Service)] = true
			} else {
				rest = append(rest, p)
			}
		}
		m, _ := train.TrainPrivacy(tosdr, rest, train.PrivacyConfig, func(s string) bool { return held[strings.ToLower(s)] })
		ms.Privacy = m
		on, err := analyze.New(ms)
		if err != nil {
			return err
		}
		for i, p := range ps {
			if fold[i] == k {
				withModel[i], without[i] = analyzerLabels(p.Text, on), analyzerLabels(p.Text, off)
			}
		}
	}
	if dump != "" {
		writeErrors(w, dump, ps, withModel)
		return nil
	}
	fmt.Fprintf(w, "labelled set (tuned on): %d paragraphs of %d privacy policies (%s)\n\n", len(ps), countPolicies(ps), path)
	score(w, fmt.Sprintf("analyzer (Engine.Analyze per paragraph; learned detector cross-validated by policy, %d folds)", train.PrivacyConfig.Folds), ps, withModel)
	fmt.Fprintln(w)
	score(w, "analyzer without the learned detector (patterns and ToS;DR cases)", ps, without)
	fmt.Fprintln(w)
	score(w, "keyword baseline", ps, keywordAll(ps))
	if len(fresh) == 0 {
		return nil
	}
	// The fresh set is scored by a detector trained on all the labelled
	// paragraphs and on the ToS;DR quotes of every service but the fresh
	// set's, as the shipped one is trained: none of its policies is in
	// what the detector or the patterns were tuned on.
	held := map[string]bool{}
	for _, p := range fresh {
		held[strings.ToLower(p.Service)] = true
	}
	m, _ := train.TrainPrivacy(tosdr, ps, train.PrivacyConfig, func(s string) bool { return held[strings.ToLower(s)] })
	ms.Privacy = m
	on, err := analyze.New(ms)
	if err != nil {
		return err
	}
	withModel, without = make([][]string, len(fresh)), make([][]string, len(fresh))
	for i, p := range fresh {
		withModel[i], without[i] = analyzerLabels(p.Text, on), analyzerLabels(p.Text, off)
	}
	fmt.Fprintf(w, "\nfresh held-out set (never tuned on): %d paragraphs of %d privacy policies (%s)\n\n", len(fresh), countPolicies(fresh), freshPath)
	score(w, "analyzer (learned detector trained on the labelled set)", fresh, withModel)
	fmt.Fprintln(w)
	score(w, "analyzer without the learned detector (patterns and ToS;DR cases)", fresh, without)
	fmt.Fprintln(w)
	score(w, "keyword baseline", fresh, keywordAll(fresh))
	return nil
}

func countPolicies(ps []train.PrivacyParagraph) int {
	policies := map[string]bool{}
	for _, p := range ps {
		policies[p.Source] = true
	}
	return len(policies)
}

func keywordAll(ps []train.PrivacyParagraph) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = keywordLabels(p.Text)
	}
	return out
}

// writeErrors writes the paragraphs where preds and the labels disagree on
// category cat, one a line, tab-separated: the labels.jsonl line (from 1),
// FP or FN, the categories found, the labels, the text (newlines as " / ").
func writeErrors(w io.Writer, cat string, ps []train.PrivacyParagraph, preds [][]string) {
	for i, p := range ps {
		got, want := slices.Contains(preds[i], cat), slices.Contains(p.Labels, cat)
		if got == want {
			continue
		}
		kind := "FN"
		if got {
			kind = "FP"
		}
		text := strings.ReplaceAll(strings.ReplaceAll(p.Text, "\t", " "), "\n", " / ")
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", i+1, kind, strings.Join(preds[i], ","), strings.Join(p.Labels, ","), text)
	}
}

// analyzerLabels is the set of privacy categories the analyzer finds in text.
func analyzerLabels(text string, engine *analyze.Engine) []string {
	var out []string
	for _, f := range engine.Analyze(text, analyze.Options{DocumentType: "privacy"}).Findings {
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
func tally(ps []train.PrivacyParagraph, preds [][]string) map[string]*counts {
	by := map[string]*counts{}
	for _, c := range analyze.PrivacyCategories {
		by[c] = &counts{}
	}
	for i, p := range ps {
		got := preds[i]
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

func score(w io.Writer, name string, ps []train.PrivacyParagraph, preds [][]string) {
	by := tally(ps, preds)
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
