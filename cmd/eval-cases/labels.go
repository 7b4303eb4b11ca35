package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze/train"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

// Label is one labelled sentence of labels.jsonl (GUIDELINES.md says what
// each field means).
type Label struct {
	Service  string `json:"service"`
	Source   string `json:"source"`
	Type     string `json:"type"`
	Sentence int    `json:"sentence"`
	SHA256   string `json:"sha256"`
	Text     string `json:"text"`
	Kind     string `json:"kind"`
	Actor    string `json:"actor"`
	Modality string `json:"modality"`
	Negated  bool   `json:"negated"`
	Case     string `json:"case"`
	Rating   string `json:"rating"`
}

var (
	kinds      = []string{"clause", "toc", "summary", "heading", "cross_reference", "definition", "example", "other"}
	actors     = []string{"service", "user", "third_party", "none"}
	modalities = []string{"right", "commitment", "obligation", "statement", "none"}
)

// readLabels reads labels.jsonl.
func readLabels(path string) ([]Label, error) {
	var out []Label
	err := corpus.EachLine(path, func(line []byte) error {
		var l Label
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		out = append(out, l)
		return nil
	})
	return out, err
}

// check reports the first way l breaks the guidelines' vocabulary: a kind,
// actor or modality outside the lists, a case on a sentence that is not a
// clause, a case title that is not in cases.tsv or a rating that is not the
// case's. Sentences that are not clauses have actor and modality "none".
func (l Label) check(rating map[string]string) error {
	switch {
	case !slices.Contains(kinds, l.Kind):
		return fmt.Errorf("kind %q", l.Kind)
	case !slices.Contains(actors, l.Actor):
		return fmt.Errorf("actor %q", l.Actor)
	case !slices.Contains(modalities, l.Modality):
		return fmt.Errorf("modality %q", l.Modality)
	case l.Kind != "clause" && (l.Actor != "none" || l.Modality != "none" || l.Negated):
		return fmt.Errorf("%s with actor %q, modality %q", l.Kind, l.Actor, l.Modality)
	case l.Kind == "clause" && l.Modality == "none":
		return fmt.Errorf("clause without modality")
	case l.Case == "" && l.Rating != "":
		return fmt.Errorf("rating %q without a case", l.Rating)
	case l.Case == "":
		return nil
	case l.Kind != "clause":
		return fmt.Errorf("case on a %s", l.Kind)
	}
	r, ok := rating[l.Case]
	switch {
	case !ok:
		return fmt.Errorf("case %q is not in cases.tsv", l.Case)
	case r != l.Rating:
		return fmt.Errorf("rating %q, the case's is %q", l.Rating, r)
	}
	return nil
}

// caseRatings maps each case title of cases.tsv to its rating (the
// project's rating for the cases ToS;DR left unrated, as train.ReadToSDR
// gives them).
func caseRatings(d train.ToSDR) map[string]string {
	out := map[string]string{}
	for _, c := range d.Cases {
		out[c.Title] = c.Rating
	}
	return out
}
