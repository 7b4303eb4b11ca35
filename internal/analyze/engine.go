package analyze

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze/model"
)

// The models the analyzer ships with, written by make train.
var (
	//go:embed model/clauses.gob.gz
	embeddedClauses []byte
	//go:embed model/cases.gob.gz
	embeddedCases []byte
	//go:embed model/privacy.gob.gz
	embeddedPrivacy []byte
)

// Models are the three learned models an Engine runs.
type Models struct {
	Clauses *model.ModelFile
	Cases   *model.CaseModel
	// Privacy may be nil: privacy practices are then found by the
	// patterns alone (eval-privacy's baseline).
	Privacy *model.PrivacyModel
}

// Embedded decodes the models the analyzer ships with.
func Embedded() (Models, error) {
	return decodeModels(embeddedClauses, embeddedCases, embeddedPrivacy)
}

func decodeModels(clauses, cases, privacy []byte) (Models, error) {
	var ms Models
	var err error
	if ms.Clauses, err = model.DecodeModel(bytes.NewReader(clauses)); err != nil {
		return Models{}, fmt.Errorf("analyze: embedded clause model: %w", err)
	}
	if ms.Cases, err = model.DecodeCaseModel(bytes.NewReader(cases)); err != nil {
		return Models{}, fmt.Errorf("analyze: embedded case model: %w", err)
	}
	if ms.Privacy, err = model.DecodePrivacyModel(bytes.NewReader(privacy)); err != nil {
		return Models{}, fmt.Errorf("analyze: embedded privacy model: %w", err)
	}
	return ms, nil
}

// Engine analyzes documents with a set of models. It is safe for
// concurrent use, and holds nothing but the models: build it once (Load)
// and share it.
type Engine struct {
	clf *classifier
	cd  *caseDetector
	pd  *privacyDetector
}

// Load builds an Engine with the embedded models, or says why it cannot
// (without them it would find no unfair clause nor case in any text, so
// whatever serves analyses fails at start instead).
func Load() (*Engine, error) {
	ms, err := Embedded()
	if err != nil {
		return nil, err
	}
	return New(ms)
}

// New builds an Engine with the given models (evaluation runs others than
// the embedded ones).
func New(ms Models) (*Engine, error) {
	if ms.Clauses == nil || ms.Cases == nil {
		return nil, fmt.Errorf("analyze: a clause model and a case model are needed")
	}
	if !slices.Equal(ms.Clauses.Labels, ClauseLabels) {
		return nil, fmt.Errorf("analyze: clause model labels %q, want %q", ms.Clauses.Labels, ClauseLabels)
	}
	e := &Engine{clf: newClassifier(ms.Clauses), cd: newCaseDetector(ms.Cases)}
	if ms.Privacy != nil {
		if !slices.Equal(ms.Privacy.Categories, PrivacyCategories) {
			return nil, fmt.Errorf("analyze: privacy model categories %q, want %q", ms.Privacy.Categories, PrivacyCategories)
		}
		e.pd = newPrivacyDetector(ms.Privacy)
	}
	return e, nil
}

// Notes are the clause model's training notes (data, hyper-parameters,
// cross-validated scores).
func (e *Engine) Notes() string { return e.clf.m.Notes }

// Classify returns the unfair-clause labels of one raw sentence, in LexGLUE
// label order. An empty result means the sentence looks fair.
func (e *Engine) Classify(sentence string) []string { return e.clf.labels(sentence) }

// DetectCases returns the titles of the ToS;DR cases found in one raw
// sentence, in the model's case order.
func (e *Engine) DetectCases(sentence string) []string { return e.cd.titles(sentence) }

// ModelVersion names the embedded models by the start of their SHA-256, so a
// change of any model changes it: clauses, cases and privacy, in that order.
func ModelVersion() string {
	short := func(b []byte) string {
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:6])
	}
	return "clauses-" + short(embeddedClauses) + " cases-" + short(embeddedCases) + " privacy-" + short(embeddedPrivacy)
}
