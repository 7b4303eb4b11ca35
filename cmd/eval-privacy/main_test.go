package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
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
		if corpus.TextHash(p.Text) != p.SHA256 {
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

// The fresh set leaves out every service of the labelled set (by its name
// or its Open Terms Archive folder), draws at most freshPerPolicy
// paragraphs of each policy in document order, and draws the same each time.
func TestFreshSampleLeavesOutTheLabelledServices(t *testing.T) {
	var long []string
	for i := range 20 {
		long = append(long, fmt.Sprintf("Paragraph number %d of the long policy says what we collect.", i))
	}
	docs := []map[string]string{
		{"service": "Labelled", "type": "Privacy Policy", "source": "r@c:Labelled/Privacy Policy.md", "text": "We collect your email address to sign you in."},
		{"service": "Renamed", "type": "Privacy Policy", "source": "r@c:Old Name/Privacy Policy.md", "text": "We collect your email address to sign you in."},
		{"service": "Fresh", "type": "Terms of Service", "source": "r@c:Fresh/Terms of Service.md", "text": "You may not resell the service to anyone else."},
		{"service": "Fresh", "type": "Privacy Policy", "source": "r@c:Fresh/Privacy Policy.md", "text": strings.Join(long, "\n")},
	}
	path := filepath.Join(t.TempDir(), "documents.jsonl.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	for _, d := range docs {
		b, _ := json.Marshal(d)
		zw.Write(append(b, '\n'))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	old := []train.PrivacyParagraph{{Service: "labelled"}, {Service: "Old Name"}}
	got, err := sampleFresh(path, old)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != freshPerPolicy {
		t.Fatalf("%d paragraphs, want %d of the one fresh policy", len(got), freshPerPolicy)
	}
	for i, p := range got {
		if p.Service != "Fresh" || p.Text != long[p.Paragraph] || corpus.TextHash(p.Text) != p.SHA256 {
			t.Errorf("paragraph %d: %+v", i, p)
		}
		if i > 0 && p.Paragraph <= got[i-1].Paragraph {
			t.Errorf("paragraphs out of document order: %d after %d", p.Paragraph, got[i-1].Paragraph)
		}
	}
	again, _ := sampleFresh(path, old)
	if !slices.EqualFunc(got, again, func(a, b train.PrivacyParagraph) bool { return a.Paragraph == b.Paragraph }) {
		t.Error("a second draw differs: the seed does not fix the sample")
	}
	if _, err := sampleFresh(filepath.Join(t.TempDir(), "missing.jsonl.gz"), old); err == nil {
		t.Error("a missing file gave no error")
	}
}

// The fresh labels are the paragraphs they were made on, at least 300, of
// services not in the labelled set.
func TestFreshLabelsAreHeldOut(t *testing.T) {
	ps, err := train.ReadPrivacyLabels("../../internal/analyze/testdata/privacy/labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := train.ReadPrivacyLabels("../../internal/analyze/testdata/privacy/fresh.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh) < 300 {
		t.Fatalf("%d fresh paragraphs, want at least 300", len(fresh))
	}
	used := map[string]bool{}
	for _, p := range ps {
		used[strings.ToLower(p.Service)] = true
	}
	for _, p := range fresh {
		if used[strings.ToLower(p.Service)] || used[strings.ToLower(otaService(p.Source))] {
			t.Errorf("%s: in the labelled set too", p.Service)
		}
		if corpus.TextHash(p.Text) != p.SHA256 {
			t.Errorf("%s paragraph %d: text changed since labelling", p.Service, p.Paragraph)
		}
	}
}
