package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
	"github.com/clausewatch/clausewatch/internal/view"
)

func (s *server) handleMonitorCreate(w http.ResponseWriter, r *http.Request) error {
	var in monitor.MonitorCreate
	if err := decode(w, r, &in); err != nil {
		return err
	}
	m, err := s.mon.CreateMonitor(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, view.NewMonitor(m))
}

func (s *server) handleMonitorList(w http.ResponseWriter, r *http.Request) error {
	ms, err := s.mon.FindMonitors(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewMonitorList(ms))
}

func (s *server) handleMonitorDelete(w http.ResponseWriter, r *http.Request) error {
	if err := s.mon.DeleteMonitor(r.Context(), r.URL.Query().Get("id")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"deleted": true})
}

// handleMonitorUpdate changes a monitor: PATCH /api/monitor?id= with the
// fields to change, like DELETE and check name the monitor in the query.
func (s *server) handleMonitorUpdate(w http.ResponseWriter, r *http.Request) error {
	var in monitor.MonitorUpdate
	if err := decode(w, r, &in); err != nil {
		return err
	}
	m, err := s.mon.UpdateMonitor(r.Context(), r.URL.Query().Get("id"), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewMonitor(m))
}

func (s *server) handleMonitorCheck(w http.ResponseWriter, r *http.Request) error {
	m, err := s.mon.CheckMonitor(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewMonitor(m))
}

func (s *server) handleAlertList(w http.ResponseWriter, r *http.Request) error {
	unread, err := boolQuery(r, "unread")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := monitor.AlertFilter{Unread: unread, MonitorID: q.Get("monitorId"), Cursor: q.Get("cursor")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return app.InvalidLimit()
		}
		f.Limit = &n
	}
	page, err := s.mon.FindAlerts(r.Context(), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.NewAlertList(page))
}

func (s *server) handleAlertUpdate(w http.ResponseWriter, r *http.Request) error {
	var in monitor.AlertUpdate
	if err := decode(w, r, &in); err != nil {
		return err
	}
	n, err := s.mon.UpdateAlerts(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view.AlertsUpdated{Updated: n})
}
