// Package model holds the formats of the files in this directory, which
// cmd/train writes and the analyzer embeds and reads, and the feature
// hashing and linear scoring both sides must compute alike. It is pure: no
// I/O but the reader and writer it is given.
//
// The type names are part of the files' bytes (gob writes them), so they
// stay as they are.
package model

import (
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"
)

// Clauses is the number of unfair-clause categories the clause classifier
// scores (analyze.ClauseLabels).
const Clauses = 8

// ModelFile is the serialised clause classifier (gzip + gob), written by
// cmd/train to clauses.gob.gz.
type ModelFile struct {
	Version  int
	Labels   []string
	Features FeatureConfig
	Buckets  []uint32  // active hash buckets, ascending
	IDF      []float32 // per active bucket
	W        []float32 // len(Buckets)*8, row-major per bucket
	Bias     [Clauses]float32
	Thr      [Clauses]float32 // decision thresholds on the margin
	Scale    [Clauses]float32 // confidence slope: conf = sigmoid(Scale*(margin-Thr))
	Notes    string           // training summary (data, hyper-parameters, CV scores)
}

// Encode writes the model deterministically (gob, gzip level 9).
func (m *ModelFile) Encode(w io.Writer) error { return encodeGzipGob(w, m) }

// DecodeModel reads a model written by Encode.
func DecodeModel(r io.Reader) (*ModelFile, error) {
	var m ModelFile
	if err := decodeGzipGob(r, &m); err != nil {
		return nil, err
	}
	if len(m.W) != len(m.Buckets)*Clauses || len(m.IDF) != len(m.Buckets) || m.Features.Bits < 8 || m.Features.Bits > 26 {
		return nil, fmt.Errorf("inconsistent clause model")
	}
	return &m, nil
}

// CaseInfo is one ToS;DR case the detector finds: its title (a standard
// statement such as "The service can delete your account without prior
// notice and without a reason"), its rating for the user (good, neutral,
// bad, blocker) and our category, empty where none fits.
type CaseInfo struct {
	Title, Rating, Category string
}

// CaseModel is the serialised case detector (gzip + gob), written by
// cmd/train to cases.gob.gz: one linear model per case over hashed
// word unigrams and bigrams, stored feature by feature with only the
// weights that matter (see train.TrainCases).
type CaseModel struct {
	Version  int
	Cases    []CaseInfo
	Features FeatureConfig
	Buckets  []uint32  // active hash buckets, ascending
	IDF      []float32 // per active bucket
	Ptr      []uint32  // weights of bucket k: Case[Ptr[k]:Ptr[k+1]], W[Ptr[k]:Ptr[k+1]]
	Case     []uint8
	W        []float32
	Bias     []float32 // per case
	Thr      []float32 // per case, on the margin
	Notes    string
}

// Encode writes the model deterministically (gob, gzip level 9).
func (m *CaseModel) Encode(w io.Writer) error { return encodeGzipGob(w, m) }

// DecodeCaseModel reads a model written by Encode.
func DecodeCaseModel(r io.Reader) (*CaseModel, error) {
	var m CaseModel
	if err := decodeGzipGob(r, &m); err != nil {
		return nil, err
	}
	sw := m.Weights()
	if err := sw.check(len(m.Cases)); err != nil {
		return nil, fmt.Errorf("case model: %w", err)
	}
	return &m, nil
}

// Weights are the model's weights in the form they are scored in.
func (m *CaseModel) Weights() SparseWeights {
	return SparseWeights{Features: m.Features, Buckets: m.Buckets, IDF: m.IDF, Ptr: m.Ptr, Out: m.Case, W: m.W, Bias: m.Bias, Thr: m.Thr}
}

// PrivacyModel is the learned privacy-practice detector (gzip + gob),
// written by cmd/train to privacy.gob.gz: one linear model per
// privacy category over hashed word n-grams, trained on ToS;DR quotes
// mapped to the categories and on the labelled paragraphs of
// analyze/testdata/privacy (see train.TrainPrivacy).
type PrivacyModel struct {
	Version    int
	Categories []string // analyze.PrivacyCategories, in order
	Weights    SparseWeights
	Notes      string
}

// Encode writes the model deterministically (gob, gzip level 9).
func (m *PrivacyModel) Encode(w io.Writer) error { return encodeGzipGob(w, m) }

// DecodePrivacyModel reads a model written by Encode. Whether its
// categories are the analyzer's is the analyzer's to check.
func DecodePrivacyModel(r io.Reader) (*PrivacyModel, error) {
	var m PrivacyModel
	if err := decodeGzipGob(r, &m); err != nil {
		return nil, err
	}
	if err := m.Weights.check(len(m.Categories)); err != nil {
		return nil, fmt.Errorf("privacy model: %w", err)
	}
	return &m, nil
}

// encodeGzipGob writes v as gob, gzip-compressed at level 9.
func encodeGzipGob(w io.Writer, v any) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(zw).Encode(v); err != nil {
		return err
	}
	return zw.Close()
}

// decodeGzipGob reads what encodeGzipGob wrote into v.
func decodeGzipGob(r io.Reader, v any) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	return gob.NewDecoder(zr).Decode(v)
}
