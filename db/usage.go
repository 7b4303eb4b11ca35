package db

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/internal/app"
)

// requestRow is one request-log row as stored.
type requestRow struct {
	At        time.Time `db:"at"`
	AccountID string    `db:"account_id"`
	KeyID     *string   `db:"key_id"`
	KeyPrefix string    `db:"key_prefix"`
	Method    string    `db:"method"`
	Path      string    `db:"path"`
	Status    int       `db:"status"`
	Error     string    `db:"error"`
}

func requestFromApp(r app.RequestRecord) requestRow {
	return requestRow{At: r.At.UTC(), AccountID: r.AccountID, KeyID: r.KeyID, KeyPrefix: r.KeyPrefix, Method: r.Method, Path: r.Path, Status: r.Status, Error: r.Error}
}

func (r *requestRow) toRecentError() app.RecentError {
	return app.RecentError{At: r.At.UTC(), KeyPrefix: r.KeyPrefix, Method: r.Method, Path: r.Path, Status: r.Status, Error: r.Error}
}

// dayCountRow is one account's counts of one day as stored.
type dayCountRow struct {
	AccountID string `db:"account_id"`
	Day       string `db:"day"`
	Total     int64  `db:"total"`
	Errors    int64  `db:"errors"`
}

func (r *dayCountRow) toApp() app.DayCount {
	return app.DayCount{AccountID: r.AccountID, Day: r.Day, Total: r.Total, Errors: r.Errors}
}

const addKeyUseSQL = `UPDATE api_keys SET request_count = request_count + ?,
  last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END
WHERE id = ?`

const insertRequestSQL = `INSERT INTO request_log (at, account_id, key_id, key_prefix, method, path, status, error)
VALUES (:at, :account_id, :key_id, :key_prefix, :method, :path, :status, :error)`

const addDayCountSQL = `INSERT INTO usage_daily (account_id, day, total, errors) VALUES (?, ?, ?, ?)
ON CONFLICT (account_id, day) DO UPDATE SET total = usage_daily.total + excluded.total, errors = usage_daily.errors + excluded.errors`

// SaveUsage implements app.Store. Every flush locks its key and day rows in
// one order (by key id, then by account and day), so flushes of several
// processes sharing keys wait for each other instead of deadlocking.
func (s *Store) SaveUsage(ctx context.Context, b app.UsageBatch) error {
	keys := slices.SortedFunc(slices.Values(b.Keys), func(x, y app.KeyUse) int { return cmp.Compare(x.KeyID, y.KeyID) })
	days := slices.SortedFunc(slices.Values(b.Days), func(x, y app.DayCount) int {
		return cmp.Or(cmp.Compare(x.AccountID, y.AccountID), cmp.Compare(x.Day, y.Day))
	})
	return s.inTx(ctx, func(tx *Store) error {
		for _, k := range keys {
			t := k.LastUsedAt.UTC()
			if _, err := tx.exec(ctx, addKeyUseSQL, k.Count, t, t, k.KeyID); err != nil {
				return err
			}
		}
		for _, d := range days {
			if _, err := tx.exec(ctx, addDayCountSQL, d.AccountID, d.Day, d.Total, d.Errors); err != nil {
				return err
			}
		}
		// Multi-row inserts in chunks keep a large batch to a few round trips.
		const chunk = 500
		for i := 0; i < len(b.Requests); i += chunk {
			rows := make([]requestRow, 0, chunk)
			for _, r := range b.Requests[i:min(i+chunk, len(b.Requests))] {
				rows = append(rows, requestFromApp(r))
			}
			if _, err := sqlx.NamedExecContext(ctx, tx.q, insertRequestSQL, rows); err != nil {
				return translate(err)
			}
		}
		return nil
	})
}

const findDayCountsSQL = `SELECT account_id, day, total, errors FROM usage_daily WHERE account_id = ? AND day >= ? ORDER BY day`

// FindDayCounts implements app.Store.
func (s *Store) FindDayCounts(ctx context.Context, accountID, fromDay string) ([]app.DayCount, error) {
	var rows []dayCountRow
	if err := s.selectAll(ctx, &rows, findDayCountsSQL, accountID, fromDay); err != nil {
		return nil, err
	}
	out := make([]app.DayCount, len(rows))
	for i := range rows {
		out[i] = rows[i].toApp()
	}
	return out, nil
}

const findRecentErrorsSQL = `SELECT at, key_prefix, method, path, status, error FROM request_log
WHERE account_id = ? AND (status >= 400 OR error <> '') AND at >= ? ORDER BY at DESC, id DESC LIMIT ?`

// FindRecentErrors implements app.Store.
func (s *Store) FindRecentErrors(ctx context.Context, accountID string, from time.Time, limit int) ([]app.RecentError, error) {
	var rows []requestRow
	if err := s.selectAll(ctx, &rows, findRecentErrorsSQL, accountID, from.UTC(), limit); err != nil {
		return nil, err
	}
	out := make([]app.RecentError, len(rows))
	for i := range rows {
		out[i] = rows[i].toRecentError()
	}
	return out, nil
}

const pruneRequestsSQL = `DELETE FROM request_log WHERE at < ?`

// PruneRequests implements app.Store.
func (s *Store) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	return affected(s.exec(ctx, pruneRequestsSQL, before.UTC()))
}
