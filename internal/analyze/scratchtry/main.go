package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

func main() {
	b, _ := os.ReadFile(os.Args[1])
	t0 := time.Now()
	r := analyze.Analyze(string(b), analyze.Options{DocumentType: os.Args[2]})
	el := time.Since(t0)
	counts := map[string]int{}
	for _, f := range r.Findings {
		counts[f.Severity+" "+f.Category]++
	}
	fmt.Printf("%s grade %s score %d findings %d words %d (%s) FK %.1f min %.1f\n", os.Args[1], r.Grade, r.Score, len(r.Findings), len(strings.Fields(string(b))), el, r.Readability.FleschKincaidGrade, r.Readability.ReadingMinutes)
	fmt.Println(counts)
	if len(os.Args) > 3 {
		for _, f := range r.Findings {
			if os.Args[3] == "all" || strings.Contains(f.Category, os.Args[3]) || f.Severity == os.Args[3] {
				fmt.Printf("  %-8s %-24s %.2f | %.200s\n", f.Severity, f.Category, f.Confidence, strings.ReplaceAll(f.Quote, "\n", " / "))
			}
		}
	}
}
