// Command eval-privacy scores the privacy findings paragraph by paragraph
// against internal/analyze/testdata/privacy/labels.jsonl.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	sample := flag.String("sample", "", "print the unlabelled sample drawn from this corpus file (documents.jsonl.gz) and exit")
	flag.Parse()
	if *sample != "" {
		if err := writeSample(os.Stdout, *sample); err != nil {
			fmt.Fprintln(os.Stderr, "eval-privacy:", err)
			os.Exit(1)
		}
		return
	}
}
