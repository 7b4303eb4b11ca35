package analyze

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// testEngine is the embedded models' engine, built once for the package's tests.
var testEngine = sync.OnceValues(Load)

func engine(t testing.TB) *Engine {
	t.Helper()
	e, err := testEngine()
	if err != nil {
		t.Fatalf("the embedded models: %v", err)
	}
	return e
}

// A missing or damaged model is an error Load reports, naming the model,
// never an engine that silently finds nothing.
func TestLoadReportsABrokenModel(t *testing.T) {
	if _, err := Load(); err != nil {
		t.Fatalf("the embedded models: %v", err)
	}
	for i, name := range []string{"clause model", "case model", "privacy model"} {
		good := [][]byte{embeddedClauses, embeddedCases, embeddedPrivacy}
		for kind, b := range map[string][]byte{"missing": nil, "not gzip": []byte("not a model"), "truncated": good[i][:len(good[i])/2]} {
			files := slices.Clone(good)
			files[i] = b
			if _, err := decodeModels(files[0], files[1], files[2]); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: %v, want an error naming the %s", kind, name, err, name)
			}
		}
	}
}

// An engine is built from models that fit it: the analyzer's clause labels
// and privacy categories, a clause and a case model at least.
func TestNewRefusesModelsThatDoNotFit(t *testing.T) {
	ms, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	noPrivacy := ms
	noPrivacy.Privacy = nil
	if _, err := New(noPrivacy); err != nil {
		t.Errorf("without a privacy model: %v, want an engine of the patterns alone", err)
	}
	noCases := ms
	noCases.Cases = nil
	if _, err := New(noCases); err == nil {
		t.Error("an engine without a case model was built")
	}
	otherPrivacy := *ms.Privacy
	otherPrivacy.Categories = PrivacyCategories[:9]
	wrong := ms
	wrong.Privacy = &otherPrivacy
	if _, err := New(wrong); err == nil {
		t.Error("an engine of a nine-category privacy model was built")
	}
}
