// Command train rebuilds one of the models the analyzer embeds, in
// internal/analyze/model: clauses.gob.gz, cases.gob.gz or privacy.gob.gz,
// printing its cross-validated scores. The output is byte-for-byte
// deterministic. make train runs it once for each model, in that order, each
// in a process of its own: gob numbers types in the order a process first
// encodes them, so a file's bytes would depend on the models encoded before
// it in the same process.
//
//	go run ./cmd/train -data ../shared/data cases
//
// # Clauses
//
// The unfair-clause model (clauses.gob.gz) is rebuilt from
// shared/data/clauses. Hyper-parameters are chosen from a small fixed grid
// (-quick: the default configuration only) by the nine-column macro-F1 of
// company-grouped cross-validation on train.jsonl plus newer.jsonl (a
// company's older and newer terms fall in the same fold; each fold is
// predicted with the threshold chosen on the other folds). The shipped
// model is then trained on everything labelled: train, validation and
// newer, its shared threshold chosen on the out-of-fold margins of a
// company-grouped cross-validation of that same data. Newer sentences under
// five tokens carry no label (train.ReadNewer). The LexGLUE test split is
// not here and nothing is chosen on it.
//
// # Cases
//
// The ToS;DR case detector (cases.gob.gz) is rebuilt from shared/data/tosdr
// and the CLAUDETTE sentences of shared/data/clauses (negatives for the
// cases of the eight clause categories only; see train.TrainCases). It
// prints each case's service-grouped cross-validated precision, recall and
// F1 on the quotes.
//
// # Privacy
//
// The privacy-practice detector (privacy.gob.gz) is rebuilt from the
// labelled paragraphs of internal/analyze/testdata/privacy (-labels) and
// ToS;DR's quotes mapped to our categories (see train.TrainPrivacy). It
// prints each category's policy-grouped cross-validated precision, recall
// and F1 on the labelled paragraphs, the model alone.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// options are the flags.
type options struct {
	data, labels, models string
	quick                bool
}

// trainers are the models, by the name of their file.
var trainers = []struct {
	name string
	run  func(o options, out string) error
}{
	{"clauses", trainClauses},
	{"cases", trainCases},
	{"privacy", trainPrivacy},
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "../shared/data", "directory with clauses/ and tosdr/")
	flag.StringVar(&o.labels, "labels", "internal/analyze/testdata/privacy/labels.jsonl", "privacy only: the labelled paragraphs")
	flag.StringVar(&o.models, "models", "internal/analyze/model", "directory the model files are written to, as NAME.gob.gz")
	flag.BoolVar(&o.quick, "quick", false, "clauses only: train only the default configuration")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: train [flags] clauses|cases|privacy")
		flag.PrintDefaults()
	}
	flag.Parse()
	for _, t := range trainers {
		if flag.NArg() == 1 && t.name == flag.Arg(0) {
			if err := t.run(o, filepath.Join(o.models, t.name+".gob.gz")); err != nil {
				fmt.Fprintf(os.Stderr, "train %s: %v\n", t.name, err)
				os.Exit(1)
			}
			return
		}
	}
	flag.Usage()
	os.Exit(2)
}

// encoder is a model that writes itself (model.ModelFile, CaseModel,
// PrivacyModel).
type encoder interface{ Encode(io.Writer) error }

// write encodes m to the file out and returns its size in bytes.
func write(out string, m encoder) (int, error) {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return 0, err
	}
	return buf.Len(), os.WriteFile(out, buf.Bytes(), 0o644)
}
