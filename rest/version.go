package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// versionResponse is one version of a monitored document.
type versionResponse struct {
	ContentHash string `json:"contentHash"`
	FirstSeenAt Time   `json:"firstSeenAt"`
	LastSeenAt  Time   `json:"lastSeenAt"`
	WordCount   int    `json:"wordCount"`
	Grade       string `json:"grade"`
}

func newVersionResponse(v *monitor.MonitorVersion) versionResponse {
	return versionResponse{ContentHash: v.ContentHash, FirstSeenAt: Time(v.FirstSeenAt), LastSeenAt: Time(v.LastSeenAt), WordCount: v.WordCount, Grade: v.Grade}
}

// versionDiffResponse is GET /api/monitor/versions/diff's answer.
type versionDiffResponse struct {
	MonitorID       string                 `json:"monitorId"`
	From            versionResponse        `json:"from"`
	To              versionResponse        `json:"to"`
	Diff            string                 `json:"diff"`
	Added           int                    `json:"added"`
	Removed         int                    `json:"removed"`
	Changed         int                    `json:"changed"`
	Summarised      bool                   `json:"summarised"`
	FindingsAdded   []alertFindingResponse `json:"findingsAdded"`
	FindingsRemoved []alertFindingResponse `json:"findingsRemoved"`
	GradeBefore     string                 `json:"gradeBefore"`
	GradeAfter      string                 `json:"gradeAfter"`
}

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
	return writeJSON(w, http.StatusOK, map[string]any{"versions": append([]versionResponse{}, mapAll(page.Versions, func(v monitor.MonitorVersion) versionResponse { return newVersionResponse(&v) })...),
		"nextCursor": page.NextCursor})
}

func (s *server) handleVersionDiff(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d, err := s.mon.DiffMonitorVersions(r.Context(), q.Get("monitorId"), q.Get("from"), q.Get("to"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, versionDiffResponse{MonitorID: d.MonitorID, From: newVersionResponse(&d.From), To: newVersionResponse(&d.To),
		Diff: d.Diff, Added: d.Added, Removed: d.Removed, Changed: d.Changed, Summarised: d.Summarised,
		FindingsAdded: newAlertFindingsResponse(d.FindingsAdded), FindingsRemoved: newAlertFindingsResponse(d.FindingsRemoved),
		GradeBefore: d.GradeBefore, GradeAfter: d.GradeAfter})
}
