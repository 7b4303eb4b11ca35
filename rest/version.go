package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/view"
)

func (s *server) handleVersionList(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var limit *int
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return app.InvalidLimit()
		}
		limit = &n
	}
	page, err := s.mon.FindVersionHistory(r.Context(), monitor.VersionFilter{MonitorID: q.Get("monitorId"), Limit: limit, Cursor: q.Get("cursor")})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewVersionList(page))
}

func (s *server) handleVersionDiff(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d, err := s.mon.DiffMonitorVersions(r.Context(), q.Get("monitorId"), q.Get("from"), q.Get("to"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewVersionDiff(d))
}
