package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

const (
	testData   = "../../../shared/data"
	testLabels = "../../internal/analyze/testdata/cases/labels.jsonl"
)

// The committed labels must parse, use the guidelines' vocabulary and
// cases.tsv's exact titles and ratings, and still be the sample's sentences,
// in its order and as a prefix of it (documents are labelled in sample
// order, whole windows at a time).
func TestLabelsAreConsistent(t *testing.T) {
	ls, err := readLabels(testLabels)
	if err != nil {
		t.Fatal(err)
	}
	d, err := train.ReadToSDR(filepath.Join(testData, "tosdr"))
	if err != nil {
		t.Fatal(err)
	}
	rating := caseRatings(d)
	for _, l := range ls {
		if err := l.check(rating); err != nil {
			t.Errorf("%s sentence %d: %v", l.Service, l.Sentence, err)
		}
		if corpus.TextHash(l.Text) != l.SHA256 {
			t.Errorf("%s sentence %d: sha256 is not the text's", l.Service, l.Sentence)
		}
	}
	sample, err := sampleSentences(testData)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) > len(sample) {
		t.Fatalf("%d labels, the sample has %d sentences", len(ls), len(sample))
	}
	for i, l := range ls {
		s := sample[i]
		if l.Source != s.Source || l.Sentence != s.Sentence || l.SHA256 != s.SHA256 {
			t.Fatalf("label %d is %s sentence %d, the sample's is %s sentence %d", i+1, l.Source, l.Sentence, s.Source, s.Sentence)
		}
	}
	if n := len(ls); n > 0 && n < len(sample) && sample[n].Source == ls[n-1].Source {
		t.Errorf("%s is labelled only up to sentence %d", ls[n-1].Source, ls[n-1].Sentence)
	}
}

func TestCheckRejectsLabelsOutsideTheGuidelines(t *testing.T) {
	rating := map[string]string{"You waive your moral rights": "blocker"}
	ok := Label{Kind: "clause", Actor: "user", Modality: "obligation", Case: "You waive your moral rights", Rating: "blocker"}
	if err := ok.check(rating); err != nil {
		t.Fatalf("valid label: %v", err)
	}
	for name, edit := range map[string]func(*Label){
		"unknown kind":         func(l *Label) { l.Kind = "clauses" },
		"unknown actor":        func(l *Label) { l.Actor = "we" },
		"unknown modality":     func(l *Label) { l.Modality = "may" },
		"case not in the tsv":  func(l *Label) { l.Case = "You waive your moral rights." },
		"wrong rating":         func(l *Label) { l.Rating = "bad" },
		"rating without case":  func(l *Label) { l.Case = "" },
		"case on a heading":    func(l *Label) { l.Kind, l.Actor, l.Modality = "heading", "none", "none" },
		"heading with actor":   func(l *Label) { l.Kind, l.Case, l.Rating = "toc", "", "" },
		"clause with modality": func(l *Label) { l.Modality = "none" },
	} {
		l := ok
		edit(&l)
		if l.check(rating) == nil {
			t.Errorf("%s: accepted %+v", name, l)
		}
	}
}

func TestWindowsCoverLongDocumentsEvenly(t *testing.T) {
	if got := window(3, maxSentences, windows, windowLen); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("window(3) = %v", got)
	}
	got := window(1000, maxSentences, windows, windowLen)
	if len(got) != windows*windowLen || got[0] != 0 || got[windowLen] != 200 || got[len(got)-1] != 849 {
		t.Fatalf("window(1000) = %v", got)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Fatalf("window(1000) overlaps: %v", got)
	}
}

func TestQuotesAreFoundAcrossCaseSpaceAndQuotes(t *testing.T) {
	docs := []corpus.Doc{{Service: "Acme Inc.", Type: "Terms of Service", Source: "x", Text: "Intro.\n\nWe  may change these Terms\nat any time, without ‘notice’. Other."}}
	d := train.ToSDR{
		Points: []train.Point{
			{ID: "1", Service: "acme-inc", Case: "Terms may be changed any time at their discretion, without notice to the user", Quote: "we may change these terms at any time, without 'notice'."},
			{ID: "2", Service: "acme-inc", Case: "There is a date of the last update of the terms", Quote: "Intro."},
		},
		Cases: []train.CaseRow{{Title: "Terms may be changed any time at their discretion, without notice to the user", Rating: "bad"}},
	}
	got := locatePoints(d, docs)
	if len(got) != 1 {
		t.Fatalf("located %d points, want 1 (the short quote is skipped): %+v", len(got), got)
	}
	p := got[0]
	if !p.SameService || p.Rating != "bad" || p.Sentences != [2]int{1, 1} || !strings.HasPrefix(p.Text, "We  may change") || !strings.HasSuffix(p.Text, "’.") {
		t.Fatalf("located %+v", p)
	}
}
