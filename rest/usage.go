package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
)

func (s *server) handleUsage(w http.ResponseWriter, r *http.Request) error {
	var days *int
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return app.InvalidDays()
		}
		days = &n
	}
	stats, err := s.svc.Usage(r.Context(), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"stats": stats})
}

func (s *server) handleUsagePerKey(w http.ResponseWriter, r *http.Request) error {
	limits, err := s.svc.KeyLimits(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, limits)
}
