package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// versionJSON is one version of a monitored document.
type versionJSON struct {
	ContentHash string `json:"contentHash"`
	FirstSeenAt Time   `json:"firstSeenAt"`
	LastSeenAt  Time   `json:"lastSeenAt"`
	WordCount   int    `json:"wordCount"`
	Grade       string `json:"grade"`
}

func newVersionJSON(v *monitor.MonitorVersion) versionJSON {
	return versionJSON{ContentHash: v.ContentHash, FirstSeenAt: Time(v.FirstSeenAt), LastSeenAt: Time(v.LastSeenAt), WordCount: v.WordCount, Grade: v.Grade}
}

// versionDiffJSON is GET /api/monitor/versions/diff's answer.
type versionDiffJSON struct {
	MonitorID       string        `json:"monitorId"`
	From            versionJSON   `json:"from"`
	To              versionJSON   `json:"to"`
	Diff            string        `json:"diff"`
	Added           int           `json:"added"`
	Removed         int           `json:"removed"`
	Changed         int           `json:"changed"`
	Summarised      bool          `json:"summarised"`
	FindingsAdded   []findingJSON `json:"findingsAdded"`
	FindingsRemoved []findingJSON `json:"findingsRemoved"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int    `json:"findingsAddedOmitted"`
	FindingsRemovedOmitted int    `json:"findingsRemovedOmitted"`
	GradeBefore            string `json:"gradeBefore"`
	GradeAfter             string `json:"gradeAfter"`
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
	page, err := s.mon.FindVersionHistory(r.Context(), q.Get("monitorId"), limit, q.Get("cursor"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"versions": append([]versionJSON{}, mapAll(page.Versions, func(v monitor.MonitorVersion) versionJSON { return newVersionJSON(&v) })...),
		"nextCursor": page.NextCursor})
}

func (s *server) handleVersionDiff(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d, err := s.mon.DiffMonitorVersions(r.Context(), q.Get("monitorId"), q.Get("from"), q.Get("to"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, versionDiffJSON{MonitorID: d.MonitorID, From: newVersionJSON(&d.From), To: newVersionJSON(&d.To),
		Diff: d.Diff, Added: d.Added, Removed: d.Removed, Changed: d.Changed, Summarised: d.Summarised,
		FindingsAdded: newFindingsJSON(d.FindingsAdded), FindingsRemoved: newFindingsJSON(d.FindingsRemoved),
		FindingsAddedOmitted: d.FindingsAddedOmitted, FindingsRemovedOmitted: d.FindingsRemovedOmitted,
		GradeBefore: d.GradeBefore, GradeAfter: d.GradeAfter})
}
