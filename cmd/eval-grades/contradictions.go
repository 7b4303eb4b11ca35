package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// contradiction names how a grade contradicts the findings under it, or ""
// when it does not: a reader who sees a red card under a green letter
// trusts neither.
func contradiction(r analyze.Result) string {
	var bad, blocker int
	for _, f := range r.Findings {
		switch f.Severity {
		case analyze.SeverityBad:
			bad++
		case analyze.SeverityBlocker:
			blocker++
		}
	}
	switch {
	case (r.Grade == "A" || r.Grade == "B") && blocker > 0:
		return "A or B with a blocker finding"
	case r.Grade == "A" && bad > 0:
		return "A with a bad finding"
	case (r.Grade == "D" || r.Grade == "E") && bad+blocker == 0:
		return "D or E with no bad or blocker finding"
	}
	return ""
}

// longWords is the length from which a terms of service or privacy policy
// counts as a full document in the letter distribution.
const longWords = 1000

// contradictions analyzes every corpus document with the shipped engine,
// typed as the service would type it (extract.DetectType), prints the
// letters (all documents, and the terms and privacy policies of longWords
// words or more) and counts the grades that contradict their findings.
func contradictions(data string) error {
	docs, err := corpus.Read(filepath.Join(data, "corpus", "documents.jsonl.gz"))
	if err != nil {
		return err
	}
	engine, err := analyze.Load()
	if err != nil {
		return err
	}
	byKind := map[string]int{}
	letters, long, conf := map[string]int{}, map[string]int{}, map[string]int{}
	nLong := 0
	for _, d := range docs {
		dt := extract.DetectType(d.Type, d.Text)
		r := engine.Analyze(d.Text, analyze.Options{DocumentType: dt})
		grade := cmp.Or(r.Grade, "none")
		letters[grade]++
		conf[r.Confidence]++
		if (d.Type == "Terms of Service" || d.Type == "Privacy Policy") && len(strings.Fields(d.Text)) >= longWords {
			long[grade]++
			nLong++
		}
		if k := contradiction(r); k != "" {
			byKind[k]++
			fmt.Printf("  %s (%s): %s %d %+v\n", d.Service, d.Type, r.Grade, r.Score, r.Basis)
		}
	}
	fmt.Printf("%d documents, letters %s; confidence %v\n", len(docs), dist(letters), conf)
	fmt.Printf("%d terms and privacy policies of %d words or more, letters %s\n", nLong, longWords, dist(long))
	fmt.Println("contradictions:")
	for _, k := range []string{"A or B with a blocker finding", "A with a bad finding", "D or E with no bad or blocker finding"} {
		fmt.Printf("  %-40s %d\n", k, byKind[k])
	}
	return nil
}

func dist(m map[string]int) string {
	var out []string
	for _, l := range []string{"A", "B", "C", "D", "E", "none"} {
		out = append(out, fmt.Sprintf("%s %d", l, m[l]))
	}
	return strings.Join(out, ", ")
}
