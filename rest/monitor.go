package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// monitorJSON is a monitor as /api/monitor writes it.
type monitorJSON struct {
	ID                  string  `json:"id"`
	URL                 string  `json:"url"`
	Name                string  `json:"name"`
	IntervalSeconds     int     `json:"intervalSeconds"`
	AlertOn             string  `json:"alertOn"`
	Status              string  `json:"status"`
	CreatedAt           Time    `json:"createdAt"`
	LastCheckedAt       *Time   `json:"lastCheckedAt"`
	NextCheckAt         Time    `json:"nextCheckAt"`
	LastChangedAt       *Time   `json:"lastChangedAt"`
	LastError           *string `json:"lastError"`
	LastErrorCode       *string `json:"lastErrorCode"`
	BlockedBy           *string `json:"blockedBy"`
	ConsecutiveFailures int     `json:"consecutiveFailures"`
}

func newMonitorJSON(m *monitor.Monitor) monitorJSON {
	return monitorJSON{ID: m.ID, URL: m.URL, Name: m.Name, IntervalSeconds: m.IntervalSeconds, AlertOn: m.AlertOn, Status: m.Status(),
		CreatedAt: Time(m.CreatedAt), LastCheckedAt: timePtr(m.LastCheckedAt), NextCheckAt: Time(m.NextCheckAt),
		LastChangedAt: timePtr(m.LastChangedAt), LastError: nonEmpty(m.LastError),
		LastErrorCode: nonEmpty(m.LastErrorCode), BlockedBy: nonEmpty(m.BlockedBy), ConsecutiveFailures: m.ConsecutiveFailures}
}

// findingJSON is a finding that appeared in or went away from a document.
type findingJSON struct {
	Category string `json:"category"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Quote    string `json:"quote"`
}

// alertJSON is an alert as /api/monitor/alerts writes it.
type alertJSON struct {
	ID              string        `json:"id"`
	MonitorID       string        `json:"monitorId"`
	URL             string        `json:"url"`
	DetectedAt      Time          `json:"detectedAt"`
	Read            bool          `json:"read"`
	Summary         string        `json:"summary"`
	Diff            string        `json:"diff"`
	Added           int           `json:"added"`
	Removed         int           `json:"removed"`
	FindingsAdded   []findingJSON `json:"findingsAdded"`
	FindingsRemoved []findingJSON `json:"findingsRemoved"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int `json:"findingsAddedOmitted"`
	FindingsRemovedOmitted int `json:"findingsRemovedOmitted"`
	// null on alerts stored before alerts had grades
	GradeBefore  *string        `json:"gradeBefore"`
	GradeAfter   *string        `json:"gradeAfter"`
	CasesAdded   []caseResponse `json:"casesAdded"`
	CasesRemoved []caseResponse `json:"casesRemoved"`
}

func newFindingsJSON(fs []monitor.AlertFinding) []findingJSON {
	out := make([]findingJSON, len(fs))
	for i, f := range fs {
		out[i] = findingJSON(f)
	}
	return out
}

func (s *server) handleMonitorCreate(w http.ResponseWriter, r *http.Request) error {
	var in monitor.MonitorCreate
	if err := decode(w, r, &in); err != nil {
		return err
	}
	m, err := s.mon.CreateMonitor(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newMonitorJSON(m))
}

func (s *server) handleMonitorList(w http.ResponseWriter, r *http.Request) error {
	ms, err := s.mon.FindMonitors(r.Context())
	if err != nil {
		return err
	}
	out := make([]monitorJSON, len(ms))
	for i := range ms {
		out[i] = newMonitorJSON(&ms[i])
	}
	return writeJSON(w, http.StatusOK, map[string]any{"monitors": out})
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
	return writeJSON(w, http.StatusOK, newMonitorJSON(m))
}

func (s *server) handleMonitorCheck(w http.ResponseWriter, r *http.Request) error {
	m, err := s.mon.CheckMonitor(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newMonitorJSON(m))
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
	out := make([]alertJSON, len(page.Alerts))
	for i, a := range page.Alerts {
		out[i] = alertJSON{ID: a.ID, MonitorID: a.MonitorID, URL: a.URL, DetectedAt: Time(a.DetectedAt), Read: a.Read,
			Summary: a.Summary, Diff: a.Diff, Added: a.Added, Removed: a.Removed,
			FindingsAdded: newFindingsJSON(a.FindingsAdded), FindingsRemoved: newFindingsJSON(a.FindingsRemoved),
			FindingsAddedOmitted: a.FindingsAddedOmitted, FindingsRemovedOmitted: a.FindingsRemovedOmitted,
			GradeBefore: nonEmpty(a.GradeBefore), GradeAfter: nonEmpty(a.GradeAfter),
			CasesAdded:   append([]caseResponse{}, mapAll(a.CasesAdded, newCaseResponse)...),
			CasesRemoved: append([]caseResponse{}, mapAll(a.CasesRemoved, newCaseResponse)...)}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"alerts": out, "nextCursor": page.NextCursor})
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
	return writeJSON(w, http.StatusOK, map[string]int{"updated": n})
}

// nonEmpty is s, or null for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
