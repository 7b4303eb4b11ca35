package db

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

const createAlertSQL = `INSERT INTO alerts (id, account_id, monitor_id, url, detected_at, read, summary, diff, diff_gz, added, removed,
  findings_added, findings_removed, findings_added_omitted, findings_removed_omitted, grade_before, grade_after, cases_added, cases_removed)
VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// storedAlertFinding is an alert's finding as the alerts table keeps it (JSON).
type storedAlertFinding struct {
	Category string `json:"category"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Quote    string `json:"quote"`
}

// encodeList and decodeList keep an alert's findings and cases as JSON in
// their stored shape.
func encodeList[A, S any](in []A, stored func(A) S) (string, error) {
	out := make([]S, len(in))
	for i, v := range in {
		out[i] = stored(v)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", app.Internal(err)
	}
	return string(b), nil
}

func decodeList[S, A any](s string, of func(S) A) ([]A, error) {
	var in []S
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, app.Internal(err)
	}
	out := make([]A, len(in))
	for i, v := range in {
		out[i] = of(v)
	}
	return out, nil
}

func storedAlertFindingOf(f monitor.AlertFinding) storedAlertFinding { return storedAlertFinding(f) }
func alertFindingOf(f storedAlertFinding) monitor.AlertFinding       { return monitor.AlertFinding(f) }
func storedCaseOf(c app.Case) storedCase                             { return storedCase(c) }
func caseOf(c storedCase) app.Case                                   { return app.Case(c) }

// alertFromApp is a's row; its diff is diffGz, compressed.
func alertFromApp(a *monitor.Alert, diffGz []byte) (alertRow, error) {
	added, err := encodeList(a.FindingsAdded, storedAlertFindingOf)
	if err != nil {
		return alertRow{}, err
	}
	removed, err := encodeList(a.FindingsRemoved, storedAlertFindingOf)
	if err != nil {
		return alertRow{}, err
	}
	casesAdded, err := encodeList(a.CasesAdded, storedCaseOf)
	if err != nil {
		return alertRow{}, err
	}
	casesRemoved, err := encodeList(a.CasesRemoved, storedCaseOf)
	if err != nil {
		return alertRow{}, err
	}
	return alertRow{ID: a.ID, AccountID: a.AccountID, MonitorID: a.MonitorID, URL: a.URL, DetectedAt: a.DetectedAt.UTC(),
		Read: a.Read, Summary: a.Summary, DiffGz: diffGz, Added: a.Added, Removed: a.Removed,
		FindingsAdded: added, FindingsRemoved: removed, FindingsAddedOmitted: a.FindingsAddedOmitted, FindingsRemovedOmitted: a.FindingsRemovedOmitted,
		GradeBefore: a.GradeBefore, GradeAfter: a.GradeAfter, CasesAdded: casesAdded, CasesRemoved: casesRemoved}, nil
}

// createAlert stores a; its diff is diffGz, compressed.
func (s *Store) createAlert(ctx context.Context, a *monitor.Alert, diffGz []byte) error {
	r, err := alertFromApp(a, diffGz)
	if err != nil {
		return err
	}
	_, err = s.exec(ctx, createAlertSQL, r.ID, r.AccountID, r.MonitorID, r.URL, r.DetectedAt, r.Read, r.Summary, r.DiffGz,
		r.Added, r.Removed, r.FindingsAdded, r.FindingsRemoved, r.FindingsAddedOmitted, r.FindingsRemovedOmitted, r.GradeBefore, r.GradeAfter, r.CasesAdded, r.CasesRemoved)
	return err
}

const (
	alertColumns = `id, account_id, monitor_id, url, detected_at, read, summary, diff, diff_gz, added, removed, findings_added, findings_removed,
  findings_added_omitted, findings_removed_omitted, grade_before, grade_after, cases_added, cases_removed`
	// alertColumnsWithoutDiff reads neither diff column (AlertQuery.WithoutDiff).
	alertColumnsWithoutDiff = `id, account_id, monitor_id, url, detected_at, read, summary, '' AS diff, NULL AS diff_gz, added, removed,
  findings_added, findings_removed, findings_added_omitted, findings_removed_omitted, grade_before, grade_after, cases_added, cases_removed`
)

type alertRow struct {
	ID              string    `db:"id"`
	AccountID       string    `db:"account_id"`
	MonitorID       string    `db:"monitor_id"`
	URL             string    `db:"url"`
	DetectedAt      time.Time `db:"detected_at"`
	Read            bool      `db:"read"`
	Summary         string    `db:"summary"`
	Diff            string    `db:"diff"`    // alerts stored before diff_gz; '' since
	DiffGz          []byte    `db:"diff_gz"` // NULL on alerts stored before it
	Added           int       `db:"added"`
	Removed         int       `db:"removed"`
	FindingsAdded   string    `db:"findings_added"`
	FindingsRemoved string    `db:"findings_removed"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int    `db:"findings_added_omitted"`
	FindingsRemovedOmitted int    `db:"findings_removed_omitted"`
	GradeBefore            string `db:"grade_before"`
	GradeAfter             string `db:"grade_after"`
	CasesAdded             string `db:"cases_added"`
	CasesRemoved           string `db:"cases_removed"`
}

func (r *alertRow) toApp() (monitor.Alert, error) {
	added, err := decodeList(r.FindingsAdded, alertFindingOf)
	if err != nil {
		return monitor.Alert{}, err
	}
	removed, err := decodeList(r.FindingsRemoved, alertFindingOf)
	if err != nil {
		return monitor.Alert{}, err
	}
	casesAdded, err := decodeList(r.CasesAdded, caseOf)
	if err != nil {
		return monitor.Alert{}, err
	}
	casesRemoved, err := decodeList(r.CasesRemoved, caseOf)
	if err != nil {
		return monitor.Alert{}, err
	}
	if r.DiffGz != nil {
		diff, err := decompress(r.DiffGz)
		if err != nil {
			return monitor.Alert{}, err
		}
		r.Diff = string(diff)
	}
	return monitor.Alert{ID: r.ID, AccountID: r.AccountID, MonitorID: r.MonitorID, URL: r.URL, DetectedAt: r.DetectedAt.UTC(),
		Read: r.Read, Summary: r.Summary, Diff: r.Diff, Added: r.Added, Removed: r.Removed,
		FindingsAdded: added, FindingsRemoved: removed, FindingsAddedOmitted: r.FindingsAddedOmitted, FindingsRemovedOmitted: r.FindingsRemovedOmitted,
		GradeBefore: r.GradeBefore, GradeAfter: r.GradeAfter, CasesAdded: casesAdded, CasesRemoved: casesRemoved}, nil
}

// FindAlerts implements app.Store. The filters make a few fixed variants of
// one statement, each prepared once.
func (s *Store) FindAlerts(ctx context.Context, f monitor.AlertQuery) ([]monitor.Alert, error) {
	var q strings.Builder
	columns := alertColumns
	if f.WithoutDiff {
		columns = alertColumnsWithoutDiff
	}
	q.WriteString(`SELECT ` + columns + ` FROM alerts WHERE account_id = ?`)
	args := []any{f.AccountID}
	if f.UnreadOnly {
		q.WriteString(` AND read = false`)
	}
	if f.MonitorID != "" {
		q.WriteString(` AND monitor_id = ?`)
		args = append(args, f.MonitorID)
	}
	if f.After != nil {
		at := f.After.At.UTC()
		q.WriteString(` AND (detected_at < ? OR (detected_at = ? AND id < ?))`)
		args = append(args, at, at, f.After.ID)
	}
	q.WriteString(` ORDER BY detected_at DESC, id DESC LIMIT ?`)
	var rows []alertRow
	if err := s.selectAll(ctx, &rows, q.String(), append(args, f.Limit)...); err != nil {
		return nil, err
	}
	out := make([]monitor.Alert, len(rows))
	for i := range rows {
		a, err := rows[i].toApp()
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

const updateAlertsSQL = `UPDATE alerts SET read = ? WHERE account_id = ? AND read <> ? AND id IN (?)`

// UpdateAlerts implements app.Store.
func (s *Store) UpdateAlerts(ctx context.Context, accountID string, ids []string, read bool) (int, error) {
	q, args, err := sqlx.In(updateAlertsSQL, read, accountID, read, ids)
	if err != nil {
		return 0, app.Internal(err)
	}
	// Not prepared: the IN list's length varies (as in BudgetUsed).
	r, err := s.q.ExecContext(ctx, s.q.Rebind(q), args...)
	if err != nil {
		return 0, translate(err)
	}
	n, err := r.RowsAffected()
	return int(n), translate(err)
}
