package db

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/internal/app"
)

const monitorColumns = `id, account_id, url, name, interval_seconds, created_at, next_check_at, last_checked_at, last_changed_at,
last_error, consecutive_failures, consecutive_changes, content_hash, etag, last_modified`

const countMonitorsSQL = `SELECT count(*) FROM monitors WHERE account_id = ? AND deleted_at IS NULL`

// CountMonitors implements app.Store.
func (s *Store) CountMonitors(ctx context.Context, accountID string) (int, error) {
	var n int
	err := s.get(ctx, &n, countMonitorsSQL, accountID)
	return n, err
}

// Touching the account row takes its lock (SQLite's write transaction holds
// the whole database), so two creations for one account, in any processes,
// count one after the other and the cap cannot be passed.
const lockAccountSQL = `UPDATE accounts SET updated_at = updated_at WHERE id = ?`

// createCapped runs insert in a transaction unless the account already holds
// limit rows as countSQL counts them; ok is false, and nothing is written,
// when it does. The account row's lock makes the count and the insert one
// step across processes.
func (s *Store) createCapped(ctx context.Context, accountID, countSQL string, limit int, insert func(tx *Store) error) (ok bool, err error) {
	err = s.InTx(ctx, func(st app.Store) error {
		tx := st.(*Store)
		if _, err := tx.exec(ctx, lockAccountSQL, accountID); err != nil {
			return err
		}
		var n int
		if err := tx.get(ctx, &n, countSQL, accountID); err != nil || n >= limit {
			return err
		}
		if err := insert(tx); err != nil {
			return err
		}
		ok = true
		return nil
	})
	return ok, err
}

const createMonitorSQL = `INSERT INTO monitors (id, account_id, url, name, interval_seconds, created_at, next_check_at, last_checked_at,
content_hash, content_seen_at, etag, last_modified, raw_gz, raw_type, raw_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateMonitor implements app.Store.
func (s *Store) CreateMonitor(ctx context.Context, m *app.Monitor, v *app.MonitorVersion, raw *app.RawPage, limit int) (bool, error) {
	// Compressing happens before the transaction, which holds the account's
	// lock (on SQLite, the one writer's) only for the statements.
	rawGz, err := compress(raw.Body)
	if err != nil {
		return false, err
	}
	textGz, err := compress([]byte(v.Text))
	if err != nil {
		return false, err
	}
	return s.createCapped(ctx, m.AccountID, countMonitorsSQL, limit, func(tx *Store) error {
		if _, err := tx.exec(ctx, createMonitorSQL, m.ID, m.AccountID, m.URL, m.Name, m.IntervalSeconds, m.CreatedAt.UTC(),
			m.NextCheckAt.UTC(), utcPtr(m.LastCheckedAt), m.ContentHash, v.LastSeenAt.UTC(), m.ETag, m.LastModified, rawGz, raw.ContentType, raw.URL); err != nil {
			return err
		}
		return tx.upsertVersion(ctx, v, textGz)
	})
}

const findMonitorsSQL = `SELECT ` + monitorColumns + ` FROM monitors WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id`

// FindMonitors implements app.Store.
func (s *Store) FindMonitors(ctx context.Context, accountID string) ([]app.Monitor, error) {
	out := []app.Monitor{}
	if err := s.selectAll(ctx, &out, findMonitorsSQL, accountID); err != nil {
		return nil, err
	}
	for i := range out {
		utcMonitor(&out[i])
	}
	return out, nil
}

const findMonitorSQL = `SELECT ` + monitorColumns + ` FROM monitors WHERE id = ? AND account_id = ? AND deleted_at IS NULL`

// FindMonitor implements app.Store.
func (s *Store) FindMonitor(ctx context.Context, accountID, id string) (*app.Monitor, error) {
	var m app.Monitor
	if err := s.get(ctx, &m, findMonitorSQL, id, accountID); err != nil {
		return nil, monitorNotFound(err)
	}
	return utcMonitor(&m), nil
}

const deleteMonitorSQL = `UPDATE monitors SET deleted_at = ?, lease_owner = NULL, lease_until = NULL, raw_gz = ?
WHERE id = ? AND account_id = ? AND deleted_at IS NULL`

// DeleteMonitor implements app.Store. The row stays (its alerts refer to
// it); deleted_at takes it out of every claim, list and check. Its raw
// page, never re-extracted again, goes at once, and its versions at the
// next PruneMonitorHistory.
func (s *Store) DeleteMonitor(ctx context.Context, accountID, id string, at time.Time) error {
	r, err := s.exec(ctx, deleteMonitorSQL, at.UTC(), []byte{}, id, accountID)
	if err != nil {
		return err
	}
	if n, err := r.RowsAffected(); err != nil || n == 0 {
		return monitorNotFound(translate(err))
	}
	return nil
}

// The claim: one statement picks the due, unleased monitors in due order
// (the monitors_due index) and leases them. The invariant is that a monitor
// is leased to one owner at a time. It holds across processes because the
// subquery locks each row it picks (FOR UPDATE) and skips rows another
// claim has locked (SKIP LOCKED); a row whose claim committed meanwhile is
// re-read under its lock, and its lease_until, now in the future, fails the
// WHERE. SQLite has a single writer, so its statement needs no locking
// clause. A check is recorded only WHERE lease_owner is still the claimer's
// (FinishCheck), so a process that outlived its lease records nothing.
const (
	claimDueSQL = `UPDATE monitors SET lease_owner = ?, lease_until = ?
WHERE id IN (SELECT id FROM monitors
  WHERE deleted_at IS NULL AND next_check_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
  ORDER BY next_check_at LIMIT ?`
	claimDueEnd = `)
RETURNING ` + monitorColumns
	claimDuePostgresSQL = claimDueSQL + ` FOR UPDATE SKIP LOCKED` + claimDueEnd
	claimDueSQLiteSQL   = claimDueSQL + claimDueEnd
)

// ClaimDueMonitors implements app.Store.
func (s *Store) ClaimDueMonitors(ctx context.Context, now, until time.Time, owner string, n int) ([]app.Monitor, error) {
	q := claimDueSQLiteSQL
	if s.postgres {
		q = claimDuePostgresSQL
	}
	out := []app.Monitor{}
	now = now.UTC()
	if err := s.selectAll(ctx, &out, q, owner, until.UTC(), now, now, n); err != nil {
		return nil, err
	}
	for i := range out {
		utcMonitor(&out[i])
	}
	return out, nil
}

// ClaimSQL returns the claim statement of the store's dialect as the
// database receives it, for EXPLAIN in benchmarks.
func (s *Store) ClaimSQL() string {
	if s.postgres {
		return s.db.Rebind(claimDuePostgresSQL)
	}
	return s.db.Rebind(claimDueSQLiteSQL)
}

const claimMonitorSQL = `UPDATE monitors SET lease_owner = ?, lease_until = ?
WHERE id = ? AND account_id = ? AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)
RETURNING ` + monitorColumns

// ClaimMonitor implements app.Store.
func (s *Store) ClaimMonitor(ctx context.Context, accountID, id string, now, until time.Time, owner string) (*app.Monitor, error) {
	var m app.Monitor
	err := s.get(ctx, &m, claimMonitorSQL, owner, until.UTC(), id, accountID, now.UTC())
	if app.ErrorCode(err) == app.CodeNotFound {
		if _, ferr := s.FindMonitor(ctx, accountID, id); ferr != nil {
			return nil, ferr
		}
		return nil, app.Errorf(app.CodeConflict, "the monitor is being checked right now; try again in a few seconds")
	}
	if err != nil {
		return nil, err
	}
	return utcMonitor(&m), nil
}

const nextCheckAtSQL = `SELECT next_check_at FROM monitors
WHERE deleted_at IS NULL AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_check_at LIMIT 1`

// NextCheckAt implements app.Store.
func (s *Store) NextCheckAt(ctx context.Context, now time.Time) (*time.Time, error) {
	var t time.Time
	err := s.get(ctx, &t, nextCheckAtSQL, now.UTC())
	if app.ErrorCode(err) == app.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t = t.UTC()
	return &t, nil
}

const releaseMonitorSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, next_check_at = ? WHERE id = ? AND lease_owner = ?`

// ReleaseMonitor implements app.Store.
func (s *Store) ReleaseMonitor(ctx context.Context, id, owner string, next time.Time) error {
	_, err := s.exec(ctx, releaseMonitorSQL, next.UTC(), id, owner)
	return err
}

const findVersionSQL = `SELECT monitor_id, content_hash, extractor_version, word_count, first_seen_at, last_seen_at, text_gz
FROM monitor_versions WHERE monitor_id = ? AND content_hash = ?`

// FindVersion implements app.Store.
func (s *Store) FindVersion(ctx context.Context, monitorID, contentHash string) (*app.MonitorVersion, error) {
	var row struct {
		app.MonitorVersion
		TextGz []byte `db:"text_gz"`
	}
	if err := s.get(ctx, &row, findVersionSQL, monitorID, contentHash); err != nil {
		return nil, err
	}
	text, err := decompress(row.TextGz)
	if err != nil {
		return nil, err
	}
	v := row.MonitorVersion
	v.Text = string(text)
	return utcVersion(&v), nil
}

const findRawPageSQL = `SELECT raw_gz, raw_type, raw_url FROM monitors WHERE id = ?`

// FindRawPage implements app.Store.
func (s *Store) FindRawPage(ctx context.Context, monitorID string) (*app.RawPage, error) {
	var row struct {
		Gz   []byte `db:"raw_gz"`
		Type string `db:"raw_type"`
		URL  string `db:"raw_url"`
	}
	if err := s.get(ctx, &row, findRawPageSQL, monitorID); err != nil {
		return nil, err
	}
	body, err := decompress(row.Gz)
	if err != nil {
		return nil, err
	}
	return &app.RawPage{Body: body, ContentType: row.Type, URL: row.URL}, nil
}

// Recording a check: only the lease's owner may (see the claim above).
const (
	finishCheckedSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, last_checked_at = ?, next_check_at = ?,
  last_error = '', consecutive_failures = 0, consecutive_changes = ?, etag = ?, last_modified = ?,
  content_seen_at = COALESCE(?, content_seen_at),
  content_hash = COALESCE(?, content_hash), last_changed_at = COALESCE(?, last_changed_at),
  raw_gz = COALESCE(?, raw_gz), raw_type = COALESCE(?, raw_type), raw_url = COALESCE(?, raw_url)
WHERE id = ? AND lease_owner = ? AND deleted_at IS NULL`
	finishFailedSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, last_checked_at = ?, next_check_at = ?,
  last_error = ?, consecutive_failures = ?
WHERE id = ? AND lease_owner = ? AND deleted_at IS NULL`
	// The version being replaced keeps when it was last seen.
	flushSeenSQL = `UPDATE monitor_versions SET last_seen_at = (SELECT content_seen_at FROM monitors WHERE id = ?)
WHERE monitor_id = ? AND content_hash = (SELECT content_hash FROM monitors WHERE id = ?)`
	upsertVersionSQL = `INSERT INTO monitor_versions (monitor_id, content_hash, extractor_version, text_gz, word_count, first_seen_at, last_seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (monitor_id, content_hash) DO UPDATE SET last_seen_at = excluded.last_seen_at,
  extractor_version = excluded.extractor_version, text_gz = excluded.text_gz, word_count = excluded.word_count`
	createAlertSQL = `INSERT INTO alerts (id, account_id, monitor_id, url, detected_at, read, summary, diff, diff_gz, added, removed,
  findings_added, findings_removed, grade_before, grade_after, cases_added, cases_removed)
VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// FinishCheck implements app.Store. A failed or unchanged check is one
// statement; only a new version takes a transaction.
func (s *Store) FinishCheck(ctx context.Context, c *app.CheckRecord) (bool, error) {
	at, next := c.CheckedAt.UTC(), c.NextCheckAt.UTC()
	if c.Error != "" {
		return oneRow(s.exec(ctx, finishFailedSQL, at, next, c.Error, c.Failures, c.MonitorID, c.LeaseOwner))
	}
	if c.Version == nil {
		var seen any = at
		if c.Deferred {
			seen = nil // the current version was not seen
		}
		return oneRow(s.exec(ctx, finishCheckedSQL, at, next, c.Changes, c.ETag, c.LastModified, seen, nil, nil, nil, nil, nil, c.MonitorID, c.LeaseOwner))
	}
	// nil leaves the column as it is (COALESCE). Compressing happens before
	// the transaction, so the write locks are held only for the statements.
	var changedAt, rawGz, rawType, rawURL, diffGz any
	if c.Alert != nil {
		changedAt = c.Alert.DetectedAt.UTC()
		gz, err := compress([]byte(c.Alert.Diff))
		if err != nil {
			return false, err
		}
		diffGz = gz
	}
	if c.Raw != nil {
		gz, err := compress(c.Raw.Body)
		if err != nil {
			return false, err
		}
		rawGz, rawType, rawURL = gz, c.Raw.ContentType, c.Raw.URL
	}
	textGz, err := compress([]byte(c.Version.Text))
	if err != nil {
		return false, err
	}
	err = s.InTx(ctx, func(st app.Store) error {
		tx := st.(*Store)
		if _, err := tx.exec(ctx, flushSeenSQL, c.MonitorID, c.MonitorID, c.MonitorID); err != nil {
			return err
		}
		ok, err := oneRow(tx.exec(ctx, finishCheckedSQL, at, next, c.Changes, c.ETag, c.LastModified, at, c.Version.ContentHash, changedAt, rawGz, rawType, rawURL, c.MonitorID, c.LeaseOwner))
		if err != nil {
			return err
		}
		if !ok {
			return errLeaseLost // rolls the flush above back: nothing is recorded
		}
		if err := tx.upsertVersion(ctx, c.Version, textGz); err != nil || c.Alert == nil {
			return err
		}
		return tx.createAlert(ctx, c.Alert, diffGz)
	})
	if errors.Is(err, errLeaseLost) {
		return false, nil
	}
	return err == nil, err
}

// errLeaseLost ends a check's transaction when another process holds the
// monitor's lease by now.
var errLeaseLost = errors.New("db: the monitor's lease was lost")

func oneRow(r sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := r.RowsAffected()
	return n == 1, translate(err)
}

// upsertVersion records a version whose text is textGz, compressed.
func (s *Store) upsertVersion(ctx context.Context, v *app.MonitorVersion, textGz []byte) error {
	_, err := s.exec(ctx, upsertVersionSQL, v.MonitorID, v.ContentHash, v.ExtractorVersion, textGz, v.WordCount, v.FirstSeenAt.UTC(), v.LastSeenAt.UTC())
	return err
}

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

func storedAlertFindingOf(f app.AlertFinding) storedAlertFinding { return storedAlertFinding(f) }
func alertFindingOf(f storedAlertFinding) app.AlertFinding       { return app.AlertFinding(f) }
func storedCaseOf(c app.Case) storedCase                         { return storedCase(c) }
func caseOf(c storedCase) app.Case                               { return app.Case(c) }

// createAlert stores a; its diff is diffGz, compressed.
func (s *Store) createAlert(ctx context.Context, a *app.Alert, diffGz any) error {
	added, err := encodeList(a.FindingsAdded, storedAlertFindingOf)
	if err != nil {
		return err
	}
	removed, err := encodeList(a.FindingsRemoved, storedAlertFindingOf)
	if err != nil {
		return err
	}
	casesAdded, err := encodeList(a.CasesAdded, storedCaseOf)
	if err != nil {
		return err
	}
	casesRemoved, err := encodeList(a.CasesRemoved, storedCaseOf)
	if err != nil {
		return err
	}
	_, err = s.exec(ctx, createAlertSQL, a.ID, a.AccountID, a.MonitorID, a.URL, a.DetectedAt.UTC(), a.Read, a.Summary, diffGz,
		a.Added, a.Removed, added, removed, a.GradeBefore, a.GradeAfter, casesAdded, casesRemoved)
	return err
}

// The current version's last sighting is on the monitor (content_seen_at).
const findVersionsSQL = `SELECT v.monitor_id, v.content_hash, v.extractor_version, v.word_count, v.first_seen_at, v.last_seen_at,
  m.content_hash AS current_hash, m.content_seen_at
FROM monitor_versions v JOIN monitors m ON m.id = v.monitor_id WHERE v.monitor_id = ?`

// FindVersions implements app.Store.
func (s *Store) FindVersions(ctx context.Context, monitorID string, after *app.PageCursor, limit int) ([]app.MonitorVersion, error) {
	q, args := findVersionsSQL, []any{monitorID}
	if after != nil {
		at := after.At.UTC()
		q += ` AND (v.first_seen_at < ? OR (v.first_seen_at = ? AND v.content_hash < ?))`
		args = append(args, at, at, after.ID)
	}
	var rows []struct {
		app.MonitorVersion
		CurrentHash string    `db:"current_hash"`
		SeenAt      time.Time `db:"content_seen_at"`
	}
	if err := s.selectAll(ctx, &rows, q+` ORDER BY v.first_seen_at DESC, v.content_hash DESC LIMIT ?`, append(args, limit)...); err != nil {
		return nil, err
	}
	out := make([]app.MonitorVersion, len(rows))
	for i, r := range rows {
		out[i] = r.MonitorVersion
		if r.ContentHash == r.CurrentHash {
			out[i].LastSeenAt = r.SeenAt
		}
		utcVersion(&out[i])
	}
	return out, nil
}

const alertColumns = `id, account_id, monitor_id, url, detected_at, read, summary, diff, diff_gz, added, removed, findings_added, findings_removed,
  grade_before, grade_after, cases_added, cases_removed`

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
	GradeBefore     string    `db:"grade_before"`
	GradeAfter      string    `db:"grade_after"`
	CasesAdded      string    `db:"cases_added"`
	CasesRemoved    string    `db:"cases_removed"`
}

// FindAlerts implements app.Store. The filters make a few fixed variants of
// one statement, each prepared once.
func (s *Store) FindAlerts(ctx context.Context, f app.AlertQuery) ([]app.Alert, error) {
	var q strings.Builder
	q.WriteString(`SELECT ` + alertColumns + ` FROM alerts WHERE account_id = ?`)
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
	out := make([]app.Alert, len(rows))
	for i, r := range rows {
		added, err := decodeList(r.FindingsAdded, alertFindingOf)
		if err != nil {
			return nil, err
		}
		removed, err := decodeList(r.FindingsRemoved, alertFindingOf)
		if err != nil {
			return nil, err
		}
		casesAdded, err := decodeList(r.CasesAdded, caseOf)
		if err != nil {
			return nil, err
		}
		casesRemoved, err := decodeList(r.CasesRemoved, caseOf)
		if err != nil {
			return nil, err
		}
		if r.DiffGz != nil {
			diff, err := decompress(r.DiffGz)
			if err != nil {
				return nil, err
			}
			r.Diff = string(diff)
		}
		out[i] = app.Alert{ID: r.ID, AccountID: r.AccountID, MonitorID: r.MonitorID, URL: r.URL, DetectedAt: r.DetectedAt.UTC(),
			Read: r.Read, Summary: r.Summary, Diff: r.Diff, Added: r.Added, Removed: r.Removed,
			FindingsAdded: added, FindingsRemoved: removed,
			GradeBefore: r.GradeBefore, GradeAfter: r.GradeAfter, CasesAdded: casesAdded, CasesRemoved: casesRemoved}
	}
	return out, nil
}

// Retention (app.PruneMonitorHistory): versions are ranked per monitor,
// newest first, leaving out the current one, which a live monitor always
// keeps; a deleted monitor's versions all go.
const (
	pruneVersionsSQL = `DELETE FROM monitor_versions WHERE (monitor_id, content_hash) IN (
  SELECT monitor_id, content_hash FROM (
    SELECT v.monitor_id, v.content_hash, v.last_seen_at, m.deleted_at,
      ROW_NUMBER() OVER (PARTITION BY v.monitor_id ORDER BY v.first_seen_at DESC, v.content_hash DESC) AS n
    FROM monitor_versions v JOIN monitors m ON m.id = v.monitor_id JOIN accounts a ON a.id = m.account_id
    WHERE a.tier = ? AND (v.content_hash <> m.content_hash OR m.deleted_at IS NOT NULL)
  ) ranked WHERE n >= ? OR last_seen_at < ? OR deleted_at IS NOT NULL)`
	pruneAlertsSQL = `DELETE FROM alerts WHERE detected_at < ? AND account_id IN (SELECT id FROM accounts WHERE tier = ?)`
)

// PruneMonitorHistory implements app.Store.
func (s *Store) PruneMonitorHistory(ctx context.Context, tier app.Tier, keepVersions int, versionsBefore, alertsBefore time.Time) (int64, error) {
	var total int64
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{pruneVersionsSQL, []any{string(tier), keepVersions, versionsBefore.UTC()}},
		{pruneAlertsSQL, []any{alertsBefore.UTC(), string(tier)}},
	} {
		r, err := s.exec(ctx, q.sql, q.args...)
		if err != nil {
			return total, err
		}
		n, err := r.RowsAffected()
		if err != nil {
			return total, translate(err)
		}
		total += n
	}
	return total, nil
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

func monitorNotFound(err error) error {
	if err == nil || app.ErrorCode(err) == app.CodeNotFound {
		return app.Errorf(app.CodeNotFound, "monitor not found")
	}
	return err
}

func utcMonitor(m *app.Monitor) *app.Monitor {
	m.CreatedAt, m.NextCheckAt = m.CreatedAt.UTC(), m.NextCheckAt.UTC()
	m.LastCheckedAt, m.LastChangedAt = utcPtr(m.LastCheckedAt), utcPtr(m.LastChangedAt)
	return m
}

func utcVersion(v *app.MonitorVersion) *app.MonitorVersion {
	v.FirstSeenAt, v.LastSeenAt = v.FirstSeenAt.UTC(), v.LastSeenAt.UTC()
	return v
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// compress gzips what the database keeps of pages and texts: legal text
// shrinks about fivefold.
func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, app.Internal(err)
	}
	if err := zw.Close(); err != nil {
		return nil, app.Internal(err)
	}
	return buf.Bytes(), nil
}

func decompress(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, app.Internal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, app.Internal(err)
	}
	return out, nil
}
