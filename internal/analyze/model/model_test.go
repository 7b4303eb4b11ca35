package model

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// encoded is a decoded model that writes itself again.
type encoded interface{ Encode(io.Writer) error }

func decodeFile(t *testing.T, file string) encoded {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(b)
	var m encoded
	switch file {
	case "clauses.gob.gz":
		m, err = DecodeModel(r)
	case "cases.gob.gz":
		m, err = DecodeCaseModel(r)
	case "privacy.gob.gz":
		m, err = DecodePrivacyModel(r)
	}
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// Encoding is deterministic: each model file decodes and encodes back to
// the same bytes, which is what lets make train rebuild them byte for byte.
// Gob numbers types in the order a process first encodes them, so each
// file is encoded in a process of its own, as cmd/train writes it.
func TestFilesRoundTrip(t *testing.T) {
	if file := os.Getenv("MODEL_ROUND_TRIP"); file != "" {
		var buf bytes.Buffer
		if err := decodeFile(t, file).Encode(&buf); err != nil {
			t.Fatal(err)
		}
		if want, _ := os.ReadFile(file); !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("re-encoding %s changes it", file)
		}
		return
	}
	for _, file := range []string{"clauses.gob.gz", "cases.gob.gz", "privacy.gob.gz"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFilesRoundTrip$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MODEL_ROUND_TRIP="+file)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", file, err, out)
		}
	}
}

// Weights that do not fit their outputs are refused, naming the model.
func TestInconsistentWeightsAreRefused(t *testing.T) {
	pm := *decodeFile(t, "privacy.gob.gz").(*PrivacyModel)
	pm.Weights.Thr = pm.Weights.Thr[:3]
	var buf bytes.Buffer
	if err := pm.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodePrivacyModel(&buf); err == nil || !strings.Contains(err.Error(), "privacy model") {
		t.Errorf("privacy model: %v, want an error naming it", err)
	}
	cm := *decodeFile(t, "cases.gob.gz").(*CaseModel)
	cm.Bias = cm.Bias[:1]
	buf.Reset()
	if err := cm.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeCaseModel(&buf); err == nil || !strings.Contains(err.Error(), "case model") {
		t.Errorf("case model: %v, want an error naming it", err)
	}
	clf := *decodeFile(t, "clauses.gob.gz").(*ModelFile)
	clf.IDF = clf.IDF[:1]
	buf.Reset()
	if err := clf.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeModel(&buf); err == nil || !strings.Contains(err.Error(), "clause model") {
		t.Errorf("clause model: %v, want an error naming it", err)
	}
}
