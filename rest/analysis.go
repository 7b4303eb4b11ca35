package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/view"
)

func (s *server) handleAnalyze(w http.ResponseWriter, r *http.Request) error {
	var in app.AnalyzeInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	a, err := s.svc.Analyze(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewAnalysis(a))
}

func (s *server) handleAnalyzeBatch(w http.ResponseWriter, r *http.Request) error {
	var in app.BatchInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	res, err := s.svc.AnalyzeBatch(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewBatchResult(res))
}
