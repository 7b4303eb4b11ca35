package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// minQuoteWords is the shortest ToS;DR quote located in the corpus: shorter
// ones ("Last updated", "personal data") are found everywhere and say
// nothing about the sentence around them.
const minQuoteWords = 6

// LocatedPoint is a ToS;DR point whose quote was found in a corpus
// document: a positive for its case in context.
type LocatedPoint struct {
	ID           string `json:"id"`
	ToSDRService string `json:"tosdrService"`
	Service      string `json:"service"`
	Source       string `json:"source"`
	Type         string `json:"type"`
	// SameService says the document is of the point's own service (names
	// equal once lower-cased and reduced to letters and digits); otherwise
	// the quote is shared wording, such as a template's.
	SameService bool `json:"sameService"`
	// Start and End are code point offsets of the quote in the document's
	// text; Sentences the first and last sentence (analyze.Sentences) it
	// overlaps, as labels.jsonl numbers them.
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Sentences [2]int `json:"sentences"`
	Case      string `json:"case"`
	Rating    string `json:"rating"`
	Status    string `json:"status"`
	Text      string `json:"text"`
}

// normText is a text lower-cased, with curly quotes and dashes made plain
// and runs of white space made one space, with the code point offset in the
// original of each of its bytes.
type normText struct {
	s   string
	pos []int
}

func normalize(text string) normText {
	var b strings.Builder
	var pos []int
	space := true // drops leading space
	for i, r := range []rune(text) {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				pos = append(pos, i)
			}
			space = true
			continue
		}
		space = false
		switch r {
		case '\u2018', '\u2019':
			r = '\''
		case '\u201c', '\u201d':
			r = '"'
		case '\u2010', '\u2011', '\u2013', '\u2014':
			r = '-'
		}
		n := b.Len()
		b.WriteRune(unicode.ToLower(r))
		for range b.Len() - n {
			pos = append(pos, i)
		}
	}
	return normText{s: strings.TrimSuffix(b.String(), " "), pos: pos}
}

func serviceKey(s string) string {
	return strings.Map(func(r rune) rune {
		r = unicode.ToLower(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// locatePoints finds each ToS;DR point with a case and a quote of at least
// minQuoteWords words in every corpus document whose text contains it
// (first occurrence per document), in points.jsonl order then corpus order.
func locatePoints(d train.ToSDR, docs []corpus.Doc) []LocatedPoint {
	rating := caseRatings(d)
	norm := make([]normText, len(docs))
	for i, doc := range docs {
		norm[i] = normalize(doc.Text)
	}
	spans := map[int][]analyze.Span{}
	var out []LocatedPoint
	for _, p := range d.Points {
		q := normalize(p.Quote).s
		if p.Case == "" || len(strings.Fields(q)) < minQuoteWords {
			continue
		}
		for i, doc := range docs {
			at := strings.Index(norm[i].s, q)
			if at < 0 {
				continue
			}
			start, end := norm[i].pos[at], norm[i].pos[at+len(q)-1]+1
			if spans[i] == nil {
				spans[i] = analyze.Sentences(doc.Text)
			}
			out = append(out, LocatedPoint{
				ID: p.ID, ToSDRService: p.Service, Service: doc.Service, Source: doc.Source, Type: doc.Type,
				SameService: serviceKey(p.Service) == serviceKey(doc.Service),
				Start:       start, End: end, Sentences: overlapping(spans[i], start, end),
				Case: p.Case, Rating: rating[p.Case], Status: p.Status,
				Text: string([]rune(doc.Text)[start:end]),
			})
		}
	}
	return out
}

// overlapping returns the first and last span overlapping [start, end).
func overlapping(spans []analyze.Span, start, end int) [2]int {
	first, last := -1, -1
	for i, sp := range spans {
		if sp.End > start && sp.Start < end {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return [2]int{first, last}
}

// writePoints writes the located points as JSON lines.
func writePoints(w io.Writer, data string) error {
	d, err := train.ReadToSDR(filepath.Join(data, "tosdr"))
	if err != nil {
		return err
	}
	docs, err := corpus.Read(filepath.Join(data, "corpus", "documents.jsonl.gz"))
	if err != nil {
		return err
	}
	ps := locatePoints(d, docs)
	if err := corpus.WriteLines(w, ps); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d located points\n", len(ps))
	return nil
}
