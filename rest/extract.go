package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/view"
)

func (s *server) handleExtract(w http.ResponseWriter, r *http.Request) error {
	var in app.ExtractInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	x, err := s.svc.Extract(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewExtraction(x))
}
