package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
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
	return writeJSON(w, http.StatusOK, x)
}
