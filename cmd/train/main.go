// Command train rebuilds the models the analyzer embeds, in
// internal/analyze/model: by default all three, clauses.gob.gz,
// cases.gob.gz and privacy.gob.gz in that order (make train), printing what
// each training prints; -only clauses, cases or privacy rebuilds one. The
// output is byte-for-byte deterministic. Each model is encoded in a process
// of its own (the command runs itself once per model): gob numbers types in
// the order a process first encodes them, so a file's bytes would depend on
// the models encoded before it in the same process.
//
//	go run ./cmd/train -data ../shared/data
//	go run ./cmd/train -data ../shared/data -only cases
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
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// options are the flags; a run of one model gets all of them.
type options struct {
	data, labels, models string
	quick                bool
}

// trainers are the models in the order make train has always built them.
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
	flag.StringVar(&o.labels, "labels", "internal/analyze/testdata/privacy/labels.jsonl", "labelled privacy paragraphs")
	flag.StringVar(&o.models, "models", "internal/analyze/model", "directory the model files are written to, as NAME.gob.gz")
	flag.BoolVar(&o.quick, "quick", false, "clauses: train only the default configuration")
	only := flag.String("only", "", "rebuild one model: clauses, cases or privacy (default all three)")
	flag.Parse()
	if *only == "" {
		if err := runEach(o); err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
		return
	}
	for _, t := range trainers {
		if t.name == *only {
			if err := t.run(o, filepath.Join(o.models, t.name+".gob.gz")); err != nil {
				fmt.Fprintf(os.Stderr, "train %s: %v\n", t.name, err)
				os.Exit(1)
			}
			return
		}
	}
	fmt.Fprintf(os.Stderr, "train: -only %q: clauses, cases or privacy\n", *only)
	os.Exit(2)
}

// runEach runs this command once per model, -only NAME, so that each file
// is encoded in a fresh process (see the package comment).
func runEach(o options) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for _, t := range trainers {
		cmd := exec.Command(self, "-only", t.name, "-data", o.data, "-labels", o.labels,
			"-models", o.models, "-quick="+strconv.FormatBool(o.quick))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		fmt.Printf("train %s\n", strings.Join(cmd.Args[1:3], " "))
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	return nil
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
