package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

func TestParagraphsMergeHeadingsAndListItems(t *testing.T) {
	text := "Information we collect\nWe collect the following data about you:\n* Name and email\n* IP address\nShort line.\nCookies\nWe use cookies to remember your settings."
	got := paragraphs(text)
	want := []string{
		"Information we collect\nWe collect the following data about you:\nName and email\nIP address",
		"Cookies\nWe use cookies to remember your settings.",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paragraphs = %q, want %q", got, want)
	}
}

// The committed labels must still be the paragraphs they were made on and
// use only the analyzer's category names.
func TestLabelsAreConsistent(t *testing.T) {
	ps, err := train.ReadPrivacyLabels("../../internal/analyze/testdata/privacy/labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 500 {
		t.Fatalf("%d labelled paragraphs, want the whole sample", len(ps))
	}
	for _, p := range ps {
		if hashText(p.Text) != p.SHA256 {
			t.Errorf("%s paragraph %d: text changed since labelling", p.Service, p.Paragraph)
		}
	}
}

func TestScoreReportsMicroAndMacro(t *testing.T) {
	ps := []train.PrivacyParagraph{
		{Text: "We use cookies.", Labels: []string{"tracking"}},
		{Text: "We sell nothing here.", Labels: []string{"data_sale"}},
		{Text: "Contact us.", Labels: nil},
	}
	var preds [][]string
	for _, p := range ps {
		preds = append(preds, keywordLabels(p.Text))
	}
	var b bytes.Buffer
	score(&b, "keywords", ps, preds)
	out := b.String()
	for _, want := range []string{"tracking                  1.00  1.00  1.00     1", "micro", "macro (mean F1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("score output lacks %q:\n%s", want, out)
		}
	}
}

func TestErrorsAreTheDisagreementsOfOneCategory(t *testing.T) {
	ps := []train.PrivacyParagraph{
		{Text: "We use cookies.", Labels: []string{"tracking"}},
		{Text: "We keep your data\nfor a year.", Labels: []string{"retention"}},
		{Text: "Session cookies keep you logged in.", Labels: nil},
	}
	preds := [][]string{nil, {"retention"}, {"tracking"}}
	var b bytes.Buffer
	writeErrors(&b, "tracking", ps, preds)
	want := "1\tFN\t\ttracking\tWe use cookies.\n3\tFP\ttracking\t\tSession cookies keep you logged in.\n"
	if b.String() != want {
		t.Errorf("errors:\n%q\nwant\n%q", b.String(), want)
	}
}
