package monitor

import (
	"context"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/change"
)

// History: every version of a monitored document, the grade at each, and
// the diff between any two of them.

// VersionDiff is what changed from one version of a monitored document to
// another, as an alert would say it.
type VersionDiff struct {
	MonitorID string
	From, To  MonitorVersion // without their texts
	// Diff is the unified diff of the two texts, one paragraph a line (""
	// when Summarised or equal); Added, Removed and Changed count lines
	// and paragraphs as an alert's do.
	Diff                    string
	Added, Removed, Changed int
	Summarised              bool
	// The findings as an alert keeps them: most severe first, at most
	// MaxAlertFindings a list, with the count of the rest.
	FindingsAdded, FindingsRemoved               []AlertFinding
	FindingsAddedOmitted, FindingsRemovedOmitted int
	// The grades of the two texts, "" for one that is not a legal document.
	GradeBefore, GradeAfter string
}

// historyCaller checks an operation on the history of the caller's monitor
// monitorID: a missing id is invalid, an unknown or foreign one not_found.
func (s *Service) historyCaller(ctx context.Context, monitorID string) (*Monitor, error) {
	if _, err := app.Authorize(ctx, app.OpMonitor); err != nil {
		return nil, err
	}
	if monitorID == "" {
		return nil, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "monitorId", Message: "is required"}}}
	}
	return s.FindMonitor(ctx, monitorID)
}

// version reads one of m's versions with its text: a hash that is not one
// is invalid (field names it), an unknown one not_found.
func (s *Service) version(ctx context.Context, m *Monitor, field, hash string) (*MonitorVersion, error) {
	if !isContentHash(hash) {
		return nil, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: field, Message: "must be a version's contentHash (64 hex characters)"}}}
	}
	v, err := s.store.FindVersion(ctx, m.ID, hash)
	if app.ErrorCode(err) == app.CodeNotFound {
		return nil, app.Errorf(app.CodeNotFound, "version not found")
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// DiffMonitorVersions compares two versions of one of the caller's monitors,
// named by their content hashes (from may be newer than to: the diff then
// reads backwards). Its work is bounded as an alert's is, and it takes one
// of the places API analyses take for the analyses. Scope monitor; one scan,
// taken once both versions are found and given back when the diff fails:
// it analyzes two whole documents, work an attacker could otherwise repeat
// for free (GraphQL computes one a request: graph.MaxVersionDiffs).
func (s *Service) DiffMonitorVersions(ctx context.Context, monitorID, from, to string) (*VersionDiff, error) {
	m, err := s.historyCaller(ctx, monitorID)
	if err != nil {
		return nil, err
	}
	a, err := s.version(ctx, m, "from", from)
	if err != nil {
		return nil, err
	}
	b, err := s.version(ctx, m, "to", to)
	if err != nil {
		return nil, err
	}
	refund, err := s.app.ChargeScan(ctx)
	if err != nil {
		return nil, err
	}
	out, err := s.diffVersions(ctx, m, a, b)
	if err != nil {
		refund(ctx)
		return nil, err
	}
	return out, nil
}

// diffVersions is the diff of versions a and b of m, with texts.
func (s *Service) diffVersions(ctx context.Context, m *Monitor, a, b *MonitorVersion) (*VersionDiff, error) {
	d, err := change.CompareContext(ctx, a.Text, b.Text)
	if err != nil {
		return nil, err
	}
	var before, after analyze.Result
	if err := s.app.InAnalysisPlace(ctx, len(a.Text)+len(b.Text), func() {
		before = s.analyzeVersion(a)
		after = before // a version compared with itself is analyzed once
		if b.ContentHash != a.ContentHash {
			after = s.analyzeVersion(b)
		}
	}); err != nil {
		return nil, err
	}
	added, removed := change.FindingsMoved(a.Text, b.Text, before.Findings, after.Findings)
	out := &VersionDiff{MonitorID: m.ID, Diff: capDiff(d.Unified), Added: d.Added, Removed: d.Removed, Changed: d.Changed,
		Summarised: d.Summarised, GradeBefore: before.Grade, GradeAfter: after.Grade}
	out.FindingsAdded, out.FindingsAddedOmitted = capFindings(added)
	out.FindingsRemoved, out.FindingsRemovedOmitted = capFindings(removed)
	a.Text, b.Text = "", ""
	a.Grade, b.Grade = before.Grade, after.Grade
	out.From, out.To = *a, *b
	return out, nil
}

// analyzeVersion analyzes a version's text, remembering its grade.
func (s *Service) analyzeVersion(v *MonitorVersion) analyze.Result {
	r := s.app.Analyzer().Analyze(v.Text, analyze.Options{})
	s.grades.put(gradeKey(v), r.Grade)
	return r
}

// VersionGrade is the grade of one of the caller's monitor versions, as
// FindMonitorVersions listed it: analyzed once per text and extractor,
// then remembered.
func (s *Service) VersionGrade(ctx context.Context, v *MonitorVersion) (string, error) {
	if g, ok := s.grades.get(gradeKey(v)); ok {
		return g, nil
	}
	full, err := s.store.FindVersion(ctx, v.MonitorID, v.ContentHash)
	if err != nil {
		return "", err
	}
	var g string
	if err := s.app.InAnalysisPlace(ctx, len(full.Text), func() { g = s.analyzeVersion(full).Grade }); err != nil {
		return "", err
	}
	return g, nil
}

// withGrades fills in the grade of each version.
func (s *Service) withGrades(ctx context.Context, vs []MonitorVersion) error {
	for i := range vs {
		g, err := s.VersionGrade(ctx, &vs[i])
		if err != nil {
			return err
		}
		vs[i].Grade = g
	}
	return nil
}

func gradeKey(v *MonitorVersion) string { return v.ContentHash + "/" + v.ExtractorVersion }

// FindVersionHistory is FindMonitorVersions for the history view: the
// monitor id is required (invalid when missing) and each version carries
// its grade.
func (s *Service) FindVersionHistory(ctx context.Context, f VersionFilter) (*VersionPage, error) {
	if _, err := s.historyCaller(ctx, f.MonitorID); err != nil {
		return nil, err
	}
	page, err := s.FindMonitorVersions(ctx, f)
	if err != nil {
		return nil, err
	}
	return page, s.withGrades(ctx, page.Versions)
}
