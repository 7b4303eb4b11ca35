package main

import (
	"fmt"
	"path/filepath"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/corpus"
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

// contradictions analyzes every corpus document with the shipped engine,
// typed as the service would type it (extract.DetectType), and counts the
// grades that contradict their findings.
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
	letters := map[string]int{}
	for _, d := range docs {
		r := engine.Analyze(d.Text, analyze.Options{DocumentType: extract.DetectType(d.Type, d.Text)})
		letters[r.Grade]++
		if k := contradiction(r); k != "" {
			byKind[k]++
			fmt.Printf("  %s (%s): %s %d %+v\n", d.Service, d.Type, r.Grade, r.Score, r.Basis)
		}
	}
	fmt.Printf("%d documents, grades %v; contradictions:\n", len(docs), letters)
	for _, k := range []string{"A or B with a blocker finding", "A with a bad finding", "D or E with no bad or blocker finding"} {
		fmt.Printf("  %-40s %d\n", k, byKind[k])
	}
	return nil
}
