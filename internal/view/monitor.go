package view

import (
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Monitor is a monitor as /api/monitor and MCP's monitor tools write it.
type Monitor struct {
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

// NewMonitor maps a monitor.
func NewMonitor(m *monitor.Monitor) Monitor {
	return Monitor{ID: m.ID, URL: m.URL, Name: m.Name, IntervalSeconds: m.IntervalSeconds, AlertOn: m.AlertOn, Status: m.Status(),
		CreatedAt: Time(m.CreatedAt), LastCheckedAt: TimePtr(m.LastCheckedAt), NextCheckAt: Time(m.NextCheckAt),
		LastChangedAt: TimePtr(m.LastChangedAt), LastError: NonEmpty(m.LastError),
		LastErrorCode: NonEmpty(m.LastErrorCode), BlockedBy: NonEmpty(m.BlockedBy), ConsecutiveFailures: m.ConsecutiveFailures}
}

// MonitorList is GET /api/monitor's answer (and MCP's list_monitors).
type MonitorList struct {
	Monitors []Monitor `json:"monitors"`
}

// NewMonitorList maps the caller's monitors.
func NewMonitorList(ms []monitor.Monitor) MonitorList {
	out := MonitorList{Monitors: make([]Monitor, len(ms))}
	for i := range ms {
		out.Monitors[i] = NewMonitor(&ms[i])
	}
	return out
}

// AlertFinding is a finding that appeared in or went away from a document.
type AlertFinding struct {
	Category string `json:"category"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Quote    string `json:"quote"`
}

func newAlertFindings(fs []monitor.AlertFinding) []AlertFinding {
	out := make([]AlertFinding, len(fs))
	for i, f := range fs {
		out[i] = AlertFinding(f)
	}
	return out
}

// Alert is an alert as /api/monitor/alerts and MCP's list_alerts write it.
type Alert struct {
	ID              string         `json:"id"`
	MonitorID       string         `json:"monitorId"`
	URL             string         `json:"url"`
	DetectedAt      Time           `json:"detectedAt"`
	Read            bool           `json:"read"`
	Summary         string         `json:"summary"`
	Diff            string         `json:"diff"`
	Added           int            `json:"added"`
	Removed         int            `json:"removed"`
	FindingsAdded   []AlertFinding `json:"findingsAdded"`
	FindingsRemoved []AlertFinding `json:"findingsRemoved"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int `json:"findingsAddedOmitted"`
	FindingsRemovedOmitted int `json:"findingsRemovedOmitted"`
	// null on alerts stored before alerts had grades
	GradeBefore  *string `json:"gradeBefore"`
	GradeAfter   *string `json:"gradeAfter"`
	CasesAdded   []Case  `json:"casesAdded"`
	CasesRemoved []Case  `json:"casesRemoved"`
}

// AlertList is one page of alerts, GET /api/monitor/alerts's answer (and
// MCP's list_alerts).
type AlertList struct {
	Alerts     []Alert `json:"alerts"`
	NextCursor *string `json:"nextCursor"`
}

// NewAlertList maps a page of alerts.
func NewAlertList(p *monitor.AlertPage) AlertList {
	out := AlertList{Alerts: make([]Alert, len(p.Alerts)), NextCursor: p.NextCursor}
	for i, a := range p.Alerts {
		out.Alerts[i] = Alert{ID: a.ID, MonitorID: a.MonitorID, URL: a.URL, DetectedAt: Time(a.DetectedAt), Read: a.Read,
			Summary: a.Summary, Diff: a.Diff, Added: a.Added, Removed: a.Removed,
			FindingsAdded: newAlertFindings(a.FindingsAdded), FindingsRemoved: newAlertFindings(a.FindingsRemoved),
			FindingsAddedOmitted: a.FindingsAddedOmitted, FindingsRemovedOmitted: a.FindingsRemovedOmitted,
			GradeBefore: NonEmpty(a.GradeBefore), GradeAfter: NonEmpty(a.GradeAfter),
			CasesAdded:   append([]Case{}, MapAll(a.CasesAdded, NewCase)...),
			CasesRemoved: append([]Case{}, MapAll(a.CasesRemoved, NewCase)...)}
	}
	return out
}

// AlertsUpdated is PATCH /api/monitor/alerts's answer (and MCP's mark_alerts).
type AlertsUpdated struct {
	Updated int `json:"updated"`
}

// Version is one version of a monitored document.
type Version struct {
	ContentHash string `json:"contentHash"`
	FirstSeenAt Time   `json:"firstSeenAt"`
	LastSeenAt  Time   `json:"lastSeenAt"`
	WordCount   int    `json:"wordCount"`
	// null when the text is not a legal document (no sentence read as a
	// clause), as an alert's grades are
	Grade *string `json:"grade"`
}

// NewVersion maps a version.
func NewVersion(v *monitor.MonitorVersion) Version {
	return Version{ContentHash: v.ContentHash, FirstSeenAt: Time(v.FirstSeenAt), LastSeenAt: Time(v.LastSeenAt), WordCount: v.WordCount, Grade: NonEmpty(v.Grade)}
}

// VersionList is one page of a monitor's versions, GET
// /api/monitor/versions's answer.
type VersionList struct {
	Versions   []Version `json:"versions"`
	NextCursor *string   `json:"nextCursor"`
}

// NewVersionList maps a page of versions.
func NewVersionList(p *monitor.VersionPage) VersionList {
	out := VersionList{Versions: make([]Version, len(p.Versions)), NextCursor: p.NextCursor}
	for i := range p.Versions {
		out.Versions[i] = NewVersion(&p.Versions[i])
	}
	return out
}

// VersionDiff is GET /api/monitor/versions/diff's answer.
type VersionDiff struct {
	MonitorID       string         `json:"monitorId"`
	From            Version        `json:"from"`
	To              Version        `json:"to"`
	Diff            string         `json:"diff"`
	Added           int            `json:"added"`
	Removed         int            `json:"removed"`
	Changed         int            `json:"changed"`
	Summarised      bool           `json:"summarised"`
	FindingsAdded   []AlertFinding `json:"findingsAdded"`
	FindingsRemoved []AlertFinding `json:"findingsRemoved"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int `json:"findingsAddedOmitted"`
	FindingsRemovedOmitted int `json:"findingsRemovedOmitted"`
	// null when that text is not a legal document, as Version.Grade
	GradeBefore *string `json:"gradeBefore"`
	GradeAfter  *string `json:"gradeAfter"`
}

// NewVersionDiff maps what changed between two versions.
func NewVersionDiff(d *monitor.VersionDiff) VersionDiff {
	return VersionDiff{MonitorID: d.MonitorID, From: NewVersion(&d.From), To: NewVersion(&d.To),
		Diff: d.Diff, Added: d.Added, Removed: d.Removed, Changed: d.Changed, Summarised: d.Summarised,
		FindingsAdded: newAlertFindings(d.FindingsAdded), FindingsRemoved: newAlertFindings(d.FindingsRemoved),
		FindingsAddedOmitted: d.FindingsAddedOmitted, FindingsRemovedOmitted: d.FindingsRemovedOmitted,
		GradeBefore: NonEmpty(d.GradeBefore), GradeAfter: NonEmpty(d.GradeAfter)}
}
