package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// The sample the labels were made on: every policyStride-th privacy policy of
// the corpus by service name, and in each policy perPolicy paragraphs evenly
// spaced (all of them when it has fewer). Changing these changes the labelled set.
const (
	policyStride = 7
	perPolicy    = 16
	minWords     = 6
)

// batchStarts are the first policy index of each labelled batch, in the order
// of labels.jsonl, so a new batch appends its offset and the earlier labels
// keep their lines; offsets that differ modulo policyStride keep the batches
// disjoint.
var batchStarts = []int{0, 3}

// samplePolicies reads the corpus and returns the sampled paragraphs, unlabelled.
func samplePolicies(path string) ([]train.PrivacyParagraph, error) {
	all, err := corpus.Read(path)
	if err != nil {
		return nil, err
	}
	var docs []corpus.Doc
	for _, d := range all {
		if d.Type == "Privacy Policy" {
			docs = append(docs, d)
		}
	}
	sort.Slice(docs, func(i, j int) bool {
		a, b := strings.ToLower(docs[i].Service), strings.ToLower(docs[j].Service)
		if a != b {
			return a < b
		}
		return docs[i].Source < docs[j].Source
	})
	var out []train.PrivacyParagraph
	for _, start := range batchStarts {
		for i := start; i < len(docs); i += policyStride {
			d := docs[i]
			ps := paragraphs(d.Text)
			n := min(len(ps), perPolicy)
			for k := 0; k < n; k++ {
				idx := k * len(ps) / n
				out = append(out, train.PrivacyParagraph{Service: d.Service, Source: d.Source, Paragraph: idx, SHA256: corpus.TextHash(ps[idx]), Text: ps[idx]})
			}
		}
	}
	return out, nil
}

var (
	listItemRe = regexp.MustCompile(`^([*•-]|\d{1,2}[.)]|\([0-9a-z]{1,3}\))\s+`)
	sentEndRe  = regexp.MustCompile(`[.!?;:,)"”]$`)
)

// paragraphs splits a corpus text (one paragraph or list item a line) into
// the paragraphs that get labels: a heading line (short, no closing
// punctuation) is merged into the paragraph it introduces, list items are
// merged into the line that introduces them ("We collect:") and into each
// other, and paragraphs of fewer than minWords words are dropped.
func paragraphs(text string) []string {
	var out []string
	var heading []string
	cur, curList := "", false
	flush := func() {
		if cur != "" && len(strings.Fields(cur)) >= minWords {
			out = append(out, cur)
		}
		cur, curList = "", false
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		item := listItemRe.MatchString(line)
		if item {
			line = strings.TrimSpace(listItemRe.ReplaceAllString(line, ""))
		}
		words := len(strings.Fields(line))
		switch {
		case item && cur != "" && (curList || strings.HasSuffix(cur, ":")) && len(heading) == 0:
			cur += "\n" + line
			curList = true
		case !item && words <= 12 && !sentEndRe.MatchString(line):
			flush()
			heading = append(heading, line)
		default:
			flush()
			cur = strings.Join(append(heading, line), "\n")
			heading, curList = nil, item
		}
	}
	flush()
	return out
}

// writeSample prints the unlabelled sample as JSON lines.
func writeSample(w io.Writer, ps []train.PrivacyParagraph) error {
	out := make([]train.PrivacyParagraph, len(ps))
	for i, p := range ps {
		p.Labels = []string{}
		out[i] = p
	}
	if err := corpus.WriteLines(w, out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d paragraphs\n", len(ps))
	return nil
}

// The fresh set (testdata/privacy/fresh.jsonl) is a held-out measurement:
// paragraphs of privacy policies of services the detector was never tuned
// on, labelled by the guidelines after they followed the field's practice,
// and never read for errors or used to choose anything. It is drawn from the
// ToS;DR silver set's privacy policies (tosdr-silver/documents.jsonl.gz)
// whose service has no paragraph in labels.jsonl: in each, freshPerPolicy
// paragraphs by a random draw seeded with freshSeed (all when it has fewer),
// in document order.
const (
	freshPerPolicy = 14
	freshSeed      = 30
)

// sampleFresh returns the fresh set's paragraphs, unlabelled, from the silver
// documents at path, leaving out the services of old (the tuned-on labels).
func sampleFresh(path string, old []train.PrivacyParagraph) ([]train.PrivacyParagraph, error) {
	all, err := corpus.Read(path)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, p := range old {
		used[strings.ToLower(p.Service)] = true
	}
	var docs []corpus.Doc
	for _, d := range all {
		if d.Type == "Privacy Policy" && !used[strings.ToLower(d.Service)] && !used[strings.ToLower(otaService(d.Source))] {
			docs = append(docs, d)
		}
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Source < docs[j].Source })
	rng := rand.New(rand.NewPCG(freshSeed, 0))
	var out []train.PrivacyParagraph
	for _, d := range docs {
		ps := paragraphs(d.Text)
		pick := rng.Perm(len(ps))[:min(len(ps), freshPerPolicy)]
		slices.Sort(pick)
		for _, idx := range pick {
			out = append(out, train.PrivacyParagraph{Service: d.Service, Source: d.Source, Paragraph: idx, SHA256: corpus.TextHash(ps[idx]), Text: ps[idx]})
		}
	}
	return out, nil
}

// otaService is the Open Terms Archive service folder of a source
// ("repo@commit:Service/Privacy Policy.md"): the silver set names some
// services differently from the corpus (Y Combinator is Hacker News there).
func otaService(source string) string {
	_, path, _ := strings.Cut(source, ":")
	service, _, _ := strings.Cut(path, "/")
	return service
}
