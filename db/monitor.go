package db

import (
	"context"
	"errors"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// monitorRow is a monitor as its list and check read it.
type monitorRow struct {
	ID                  string     `db:"id"`
	AccountID           string     `db:"account_id"`
	URL                 string     `db:"url"`
	Name                string     `db:"name"`
	IntervalSeconds     int        `db:"interval_seconds"`
	CreatedAt           time.Time  `db:"created_at"`
	NextCheckAt         time.Time  `db:"next_check_at"`
	LastCheckedAt       *time.Time `db:"last_checked_at"`
	LastChangedAt       *time.Time `db:"last_changed_at"`
	LastError           string     `db:"last_error"`
	LastErrorCode       string     `db:"last_error_code"`
	BlockedBy           string     `db:"blocked_by"`
	ConsecutiveFailures int        `db:"consecutive_failures"`
	ConsecutiveChanges  int        `db:"consecutive_changes"`
	AlertOn             string     `db:"alert_on"`
	ContentHash         string     `db:"content_hash"`
	ETag                string     `db:"etag"`
	LastModified        string     `db:"last_modified"`
	WholeFetchAt        *time.Time `db:"whole_fetch_at"`
}

func monitorFromApp(m *monitor.Monitor) monitorRow {
	return monitorRow{ID: m.ID, AccountID: m.AccountID, URL: m.URL, Name: m.Name, IntervalSeconds: m.IntervalSeconds,
		CreatedAt: m.CreatedAt.UTC(), NextCheckAt: m.NextCheckAt.UTC(), LastCheckedAt: utcPtr(m.LastCheckedAt), LastChangedAt: utcPtr(m.LastChangedAt),
		LastError: m.LastError, LastErrorCode: m.LastErrorCode, BlockedBy: m.BlockedBy, ConsecutiveFailures: m.ConsecutiveFailures, ConsecutiveChanges: m.ConsecutiveChanges,
		AlertOn: m.AlertOn, ContentHash: m.ContentHash, ETag: m.ETag, LastModified: m.LastModified, WholeFetchAt: utcPtr(m.WholeFetchAt)}
}

func (r *monitorRow) toApp() *monitor.Monitor {
	return &monitor.Monitor{ID: r.ID, AccountID: r.AccountID, URL: r.URL, Name: r.Name, IntervalSeconds: r.IntervalSeconds,
		CreatedAt: r.CreatedAt.UTC(), NextCheckAt: r.NextCheckAt.UTC(), LastCheckedAt: utcPtr(r.LastCheckedAt), LastChangedAt: utcPtr(r.LastChangedAt),
		LastError: r.LastError, LastErrorCode: r.LastErrorCode, BlockedBy: r.BlockedBy, ConsecutiveFailures: r.ConsecutiveFailures, ConsecutiveChanges: r.ConsecutiveChanges,
		AlertOn: r.AlertOn, ContentHash: r.ContentHash, ETag: r.ETag, LastModified: r.LastModified, WholeFetchAt: utcPtr(r.WholeFetchAt)}
}

func monitorsToApp(rows []monitorRow) []monitor.Monitor {
	out := make([]monitor.Monitor, len(rows))
	for i := range rows {
		out[i] = *rows[i].toApp()
	}
	return out
}

const monitorColumns = `id, account_id, url, name, interval_seconds, created_at, next_check_at, last_checked_at, last_changed_at,
last_error, last_error_code, blocked_by, consecutive_failures, consecutive_changes, alert_on, content_hash, etag, last_modified, whole_fetch_at`

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
	err = s.inTx(ctx, func(tx *Store) error {
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
content_hash, content_seen_at, etag, last_modified, raw_gz, raw_type, raw_url, whole_fetch_at, alert_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateMonitor implements app.Store.
func (s *Store) CreateMonitor(ctx context.Context, m *monitor.Monitor, v *monitor.MonitorVersion, raw *monitor.RawPage, limit int) (bool, error) {
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
		r := monitorFromApp(m)
		if _, err := tx.exec(ctx, createMonitorSQL, r.ID, r.AccountID, r.URL, r.Name, r.IntervalSeconds, r.CreatedAt,
			r.NextCheckAt, r.LastCheckedAt, r.ContentHash, v.LastSeenAt.UTC(), r.ETag, r.LastModified, rawGz, raw.ContentType, raw.URL, r.WholeFetchAt, r.AlertOn); err != nil {
			return err
		}
		return tx.upsertVersion(ctx, v, textGz)
	})
}

const findMonitorsSQL = `SELECT ` + monitorColumns + ` FROM monitors WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id`

// FindMonitors implements app.Store.
func (s *Store) FindMonitors(ctx context.Context, accountID string) ([]monitor.Monitor, error) {
	var rows []monitorRow
	if err := s.selectAll(ctx, &rows, findMonitorsSQL, accountID); err != nil {
		return nil, err
	}
	return monitorsToApp(rows), nil
}

const findMonitorSQL = `SELECT ` + monitorColumns + ` FROM monitors WHERE id = ? AND account_id = ? AND deleted_at IS NULL`

// FindMonitor implements app.Store.
func (s *Store) FindMonitor(ctx context.Context, accountID, id string) (*monitor.Monitor, error) {
	var r monitorRow
	if err := s.get(ctx, &r, findMonitorSQL, id, accountID); err != nil {
		return nil, monitorNotFound(err)
	}
	return r.toApp(), nil
}

const updateMonitorSQL = `UPDATE monitors SET alert_on = ?
WHERE id = ? AND account_id = ? AND deleted_at IS NULL
RETURNING ` + monitorColumns

// UpdateMonitor implements app.Store. It writes only the fields a user
// sets, never the check's state, so it neither waits for nor disturbs a
// check under way (whose FinishCheck writes no alert_on).
func (s *Store) UpdateMonitor(ctx context.Context, accountID, id, alertOn string) (*monitor.Monitor, error) {
	var r monitorRow
	if err := s.get(ctx, &r, updateMonitorSQL, alertOn, id, accountID); err != nil {
		return nil, monitorNotFound(err)
	}
	return r.toApp(), nil
}

const deleteMonitorSQL = `UPDATE monitors SET deleted_at = ?, lease_owner = NULL, lease_until = NULL, raw_gz = ?
WHERE id = ? AND account_id = ? AND deleted_at IS NULL`

// DeleteMonitor implements app.Store. The row stays (its alerts refer to
// it); deleted_at takes it out of every claim, list and check. Its raw
// page, never re-extracted again, goes at once, and its versions at the
// next PruneMonitorHistory.
func (s *Store) DeleteMonitor(ctx context.Context, accountID, id string, at time.Time) error {
	if ok, err := oneRow(s.exec(ctx, deleteMonitorSQL, at.UTC(), []byte{}, id, accountID)); err != nil || !ok {
		return monitorNotFound(err)
	}
	return nil
}

// The claim: one statement leases one due monitor. The invariant is that a
// monitor is leased to one owner at a time. It holds across processes
// because the statement locks the row it picks (FOR UPDATE) and skips rows
// another claim has locked (SKIP LOCKED); a row whose claim committed
// meanwhile is re-read under its lock, and its lease_until, now in the
// future, fails the guard. SQLite has a single writer, so its statement
// needs no locking clause. A check is recorded only WHERE lease_owner is
// still the claimer's (FinishCheck), so a process that outlived its lease
// records nothing.
//
// Fairness: of the claimWindow earliest due monitors (a walk of the
// monitors_due index), the claim takes one of the account with the fewest
// checks in flight, counted over the leases held in every process (the
// monitors_leased index holds only leased rows: at most every process's
// workers), and the earliest due of those. So while another account has a
// monitor among the earliest due, an account holding workers gets no more
// until the others have as many. The window bounds the claim's work; a
// monitor further back waits for the ones before it as in plain due order.
const (
	claimWindow = 32
	// busy counts each account's checks in flight.
	claimBusySQL = `busy AS (
  SELECT account_id, count(*) AS n FROM monitors
  WHERE lease_owner IS NOT NULL AND lease_until > ? AND deleted_at IS NULL GROUP BY account_id)`
	// The window: the earliest due, unleased monitors.
	claimWindowSQL = `SELECT id, account_id, next_check_at FROM monitors
    WHERE deleted_at IS NULL AND next_check_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
    ORDER BY next_check_at LIMIT ?`
	claimGuard = `m.deleted_at IS NULL AND m.next_check_at <= ? AND (m.lease_until IS NULL OR m.lease_until <= ?)`
	// SQLite: one writer, so the pick needs no lock.
	claimDueSQLiteSQL = `WITH ` + claimBusySQL + `
UPDATE monitors SET lease_owner = ?, lease_until = ?
WHERE id IN (SELECT m.id FROM (` + claimWindowSQL + `) w
  JOIN monitors m ON m.id = w.id
  LEFT JOIN busy b ON b.account_id = w.account_id
  WHERE ` + claimGuard + `
  ORDER BY COALESCE(b.n, 0), w.next_check_at LIMIT 1)
RETURNING ` + monitorColumns
	// PostgreSQL: the window, ranked, becomes an array of ids; the pick
	// locks the first of them it can (FOR UPDATE SKIP LOCKED), reading each
	// by its primary key, and re-reads it under the lock (the guard).
	claimDuePostgresSQL = `WITH ` + claimBusySQL + `,
ranked AS MATERIALIZED (
  SELECT array_agg(w.id ORDER BY COALESCE(b.n, 0), w.next_check_at) AS ids
  FROM (` + claimWindowSQL + `) w LEFT JOIN busy b ON b.account_id = w.account_id)
UPDATE monitors SET lease_owner = ?, lease_until = ?
WHERE id IN (SELECT m.id FROM ranked, monitors m
  WHERE m.id = ANY(ranked.ids) AND ` + claimGuard + `
  ORDER BY array_position(ranked.ids, m.id) LIMIT 1 FOR UPDATE OF m SKIP LOCKED)
RETURNING ` + monitorColumns
)

// ClaimDueMonitor implements app.Store.
func (s *Store) ClaimDueMonitor(ctx context.Context, now, until time.Time, owner string) (*monitor.Monitor, error) {
	q, args := s.ClaimSQL(now, until, owner)
	var r monitorRow
	if err := s.get(ctx, &r, q, args...); err != nil {
		return nil, err
	}
	return r.toApp(), nil
}

// ClaimSQL returns the claim statement of the store's dialect as the
// database receives it, and its arguments, for EXPLAIN in benchmarks.
func (s *Store) ClaimSQL(now, until time.Time, owner string) (string, []any) {
	now, until = now.UTC(), until.UTC()
	if s.postgres {
		return s.db.Rebind(claimDuePostgresSQL), []any{now, now, now, claimWindow, owner, until, now, now}
	}
	return s.db.Rebind(claimDueSQLiteSQL), []any{now, owner, until, now, now, claimWindow, now, now}
}

const claimMonitorSQL = `UPDATE monitors SET lease_owner = ?, lease_until = ?
WHERE id = ? AND account_id = ? AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)
RETURNING ` + monitorColumns

// ClaimMonitor implements app.Store.
func (s *Store) ClaimMonitor(ctx context.Context, accountID, id string, now, until time.Time, owner string) (*monitor.Monitor, error) {
	var r monitorRow
	err := s.get(ctx, &r, claimMonitorSQL, owner, until.UTC(), id, accountID, now.UTC())
	if app.ErrorCode(err) == app.CodeNotFound {
		if _, ferr := s.FindMonitor(ctx, accountID, id); ferr != nil {
			return nil, ferr
		}
		return nil, app.Errorf(app.CodeConflict, "the monitor is being checked right now; try again in a few seconds")
	}
	if err != nil {
		return nil, err
	}
	return r.toApp(), nil
}

const nextCheckAtSQL = `SELECT next_check_at FROM monitors
WHERE deleted_at IS NULL AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_check_at LIMIT 1`

// NextCheckAt implements app.Store; no monitor to check is CodeNotFound.
func (s *Store) NextCheckAt(ctx context.Context, now time.Time) (time.Time, error) {
	var t time.Time
	err := s.get(ctx, &t, nextCheckAtSQL, now.UTC())
	return t.UTC(), err
}

const releaseMonitorSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, next_check_at = ? WHERE id = ? AND lease_owner = ?`

// ReleaseMonitor implements app.Store.
func (s *Store) ReleaseMonitor(ctx context.Context, id, owner string, next time.Time) error {
	_, err := s.exec(ctx, releaseMonitorSQL, next.UTC(), id, owner)
	return err
}

const findRawPageSQL = `SELECT raw_gz, raw_type, raw_url FROM monitors WHERE id = ?`

// FindRawPage implements app.Store.
func (s *Store) FindRawPage(ctx context.Context, monitorID string) (*monitor.RawPage, error) {
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
	return &monitor.RawPage{Body: body, ContentType: row.Type, URL: row.URL}, nil
}

// Recording a check: only the lease's owner may (see the claim above).
const (
	finishCheckedSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, last_checked_at = ?, next_check_at = ?,
  last_error = '', last_error_code = '', blocked_by = '', consecutive_failures = 0, consecutive_changes = ?, etag = ?, last_modified = ?,
  whole_fetch_at = COALESCE(?, whole_fetch_at),
  content_seen_at = COALESCE(?, content_seen_at),
  content_hash = COALESCE(?, content_hash), last_changed_at = COALESCE(?, last_changed_at),
  raw_gz = COALESCE(?, raw_gz), raw_type = COALESCE(?, raw_type), raw_url = COALESCE(?, raw_url)
WHERE id = ? AND lease_owner = ? AND deleted_at IS NULL`
	finishFailedSQL = `UPDATE monitors SET lease_owner = NULL, lease_until = NULL, last_checked_at = ?, next_check_at = ?,
  last_error = ?, last_error_code = ?, blocked_by = ?, consecutive_failures = ?
WHERE id = ? AND lease_owner = ? AND deleted_at IS NULL`
	// The version being replaced keeps when it was last seen.
	flushSeenSQL = `UPDATE monitor_versions SET last_seen_at = (SELECT content_seen_at FROM monitors WHERE id = ?)
WHERE monitor_id = ? AND content_hash = (SELECT content_hash FROM monitors WHERE id = ?)`
)

// FinishCheck implements app.Store. A failed or unchanged check is one
// statement; only a new version takes a transaction.
func (s *Store) FinishCheck(ctx context.Context, c *monitor.CheckRecord) (bool, error) {
	at, next := c.CheckedAt.UTC(), c.NextCheckAt.UTC()
	var whole any // nil leaves the column as it is (COALESCE)
	if c.Whole {
		whole = at
	}
	if c.Error != "" {
		return oneRow(s.exec(ctx, finishFailedSQL, at, next, c.Error, c.ErrorCode, c.BlockedBy, c.Failures, c.MonitorID, c.LeaseOwner))
	}
	if c.Version == nil {
		return oneRow(s.exec(ctx, finishCheckedSQL, at, next, c.Changes, c.ETag, c.LastModified, whole, at, nil, nil, nil, nil, nil, c.MonitorID, c.LeaseOwner))
	}
	// nil leaves the column as it is (COALESCE). Compressing happens before
	// the transaction, so the write locks are held only for the statements.
	var changedAt, rawGz, rawType, rawURL any
	var diffGz []byte
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
	err = s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, flushSeenSQL, c.MonitorID, c.MonitorID, c.MonitorID); err != nil {
			return err
		}
		ok, err := oneRow(tx.exec(ctx, finishCheckedSQL, at, next, c.Changes, c.ETag, c.LastModified, whole, at, c.Version.ContentHash, changedAt, rawGz, rawType, rawURL, c.MonitorID, c.LeaseOwner))
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
		n, err := affected(s.exec(ctx, q.sql, q.args...))
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

func monitorNotFound(err error) error {
	if err == nil || app.ErrorCode(err) == app.CodeNotFound {
		return app.Errorf(app.CodeNotFound, "monitor not found")
	}
	return err
}
