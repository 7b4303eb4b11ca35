package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

// The sample the labels are made on: of the services that have both a terms
// of service and a privacy policy in the corpus, and are not among the
// grade-evaluation services of tosdr/dev-grades.jsonl, every serviceStride-th
// by name from serviceStart, both documents of each. A document of more than
// maxSentences sentences is labelled in windows evenly spaced windows of
// windowLen sentences. Changing any of these changes the labelled set.
const (
	serviceStride = 8
	serviceStart  = 0
	maxSentences  = 250
	windows       = 5
	windowLen     = 50
)

// The second sample grows the labelled set with services that carry silver
// grades (tosdr-silver/grades.jsonl), so the case weights the grade rests on
// are measured on services whose letter we know: of the silver services with
// both a terms of service and a privacy policy, every silverStride-th by
// name, both current documents of each, in silverWindows evenly spaced runs
// of silverWindowLen sentences (shorter windows than the first sample's:
// more services for the same labelling work, which is what cross-validation
// by service needs). It follows the first sample in labels.jsonl.
const (
	silverStride    = 2
	silverWindows   = 2
	silverWindowLen = 12
)

// sampleTypes are the labelled document types, in labelling order within a
// service.
var sampleTypes = []string{"Terms of Service", "Privacy Policy"}

// sampleDocuments returns the chosen documents in labelling order: by
// service name (case-insensitive), terms before privacy policy.
func sampleDocuments(data string) ([]corpus.Doc, error) {
	all, err := corpus.Read(filepath.Join(data, "corpus", "documents.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	dev, err := devServices(filepath.Join(data, "tosdr", "dev-grades.jsonl"))
	if err != nil {
		return nil, err
	}
	return everyNth(all, func(s string) bool { return !dev[s] }, serviceStart, serviceStride), nil
}

// silverDocuments returns the second sample's documents in labelling order.
func silverDocuments(data string) ([]corpus.Doc, error) {
	all, err := corpus.Read(filepath.Join(data, "tosdr-silver", "documents.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	return everyNth(all, func(string) bool { return true }, 0, silverStride), nil
}

// everyNth returns, of the services keep accepts that have a document of
// each sampleTypes, every stride-th by name (case-insensitive) from start,
// terms before privacy policy.
func everyNth(all []corpus.Doc, keep func(service string) bool, start, stride int) []corpus.Doc {
	byService := map[string]map[string]corpus.Doc{}
	for _, d := range all {
		if !slices.Contains(sampleTypes, d.Type) || !keep(d.Service) {
			continue
		}
		if byService[d.Service] == nil {
			byService[d.Service] = map[string]corpus.Doc{}
		}
		byService[d.Service][d.Type] = d
	}
	var services []string
	for s, ds := range byService {
		if len(ds) == len(sampleTypes) {
			services = append(services, s)
		}
	}
	sort.Slice(services, func(i, j int) bool {
		a, b := strings.ToLower(services[i]), strings.ToLower(services[j])
		if a != b {
			return a < b
		}
		return services[i] < services[j]
	})
	var out []corpus.Doc
	for i := start; i < len(services); i += stride {
		for _, t := range sampleTypes {
			out = append(out, byService[services[i]][t])
		}
	}
	return out
}

// gradedServices returns the services the grade is evaluated on, the dev
// grades' and the silver set's, by lower-cased name (the silver set writes
// "last.fm" where the corpus writes "Last.fm").
func gradedServices(data string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, path := range []string{filepath.Join(data, "tosdr", "dev-grades.jsonl"), filepath.Join(data, "tosdr-silver", "grades.jsonl")} {
		m, err := devServices(path)
		if err != nil {
			return nil, err
		}
		for s := range m {
			out[strings.ToLower(s)] = true
		}
	}
	return out, nil
}

// devServices reads the corpus names of the grade-evaluation services of
// a grades file (the service field of each line).
func devServices(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	for dec.More() {
		var g struct{ Service string }
		if err := dec.Decode(&g); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[g.Service] = true
	}
	return out, nil
}

// sentences splits a document as the analyzer does (analyze.Sentences, which
// uses no model) and returns its sentences' texts.
func sentences(text string) []string {
	rs := []rune(text)
	var out []string
	for _, sp := range analyze.Sentences(text) {
		out = append(out, string(rs[sp.Start:sp.End]))
	}
	return out
}

// window returns the indexes of the sentences to label among n: all of them
// up to upTo, else k runs of length starting at i*n/k, so every part of a
// long document is sampled with its neighbours as context.
func window(n, upTo, k, length int) []int {
	var out []int
	if n <= upTo {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	for w := range k {
		start := w * n / k
		for i := start; i < start+length; i++ {
			out = append(out, i)
		}
	}
	return out
}

// sampleSentences returns the unlabelled sentences of the sample, in the
// order of labels.jsonl.
func sampleSentences(data string) ([]Label, error) {
	first, err := sampleDocuments(data)
	if err != nil {
		return nil, err
	}
	silver, err := silverDocuments(data)
	if err != nil {
		return nil, err
	}
	var out []Label
	add := func(docs []corpus.Doc, windowOf func(n int) []int) {
		for _, d := range docs {
			ss := sentences(d.Text)
			for _, i := range windowOf(len(ss)) {
				out = append(out, Label{Service: d.Service, Source: d.Source, Type: d.Type, Sentence: i, SHA256: corpus.TextHash(ss[i]), Text: ss[i]})
			}
		}
	}
	add(first, func(n int) []int { return window(n, maxSentences, windows, windowLen) })
	add(silver, func(n int) []int { return window(n, silverWindows*silverWindowLen, silverWindows, silverWindowLen) })
	return out, nil
}

// writeSample prints the unlabelled sample as JSON lines.
func writeSample(w io.Writer, data string) error {
	ls, err := sampleSentences(data)
	if err != nil {
		return err
	}
	if err := corpus.WriteLines(w, ls); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d sentences\n", len(ls))
	return nil
}
