package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The trainers are the embedded models: one per *.gob.gz file in
// internal/analyze/model, named as the file, so make train, which names
// each, writes exactly the files the analyzer embeds.
func TestTrainersAreTheModelFiles(t *testing.T) {
	files, err := filepath.Glob("../../internal/analyze/model/*.gob.gz")
	if err != nil {
		t.Fatal(err)
	}
	var have, want []string
	for _, f := range files {
		have = append(have, filepath.Base(f))
	}
	for _, tr := range trainers {
		want = append(want, tr.name+".gob.gz")
	}
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("model files %v, trainers write %v", have, want)
	}
	if _, err := os.Stat("../../internal/analyze/testdata/privacy/labels.jsonl"); err != nil {
		t.Errorf("the -labels default: %v", err)
	}
}
