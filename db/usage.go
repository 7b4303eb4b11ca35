package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/internal/app"
)

const addKeyUseSQL = `UPDATE api_keys SET request_count = request_count + ?,
  last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END
WHERE id = ?`

const insertRequestSQL = `INSERT INTO request_log (at, account_id, key_id, key_prefix, method, path, status, error)
VALUES (:at, :account_id, :key_id, :key_prefix, :method, :path, :status, :error)`

const addDayCountSQL = `INSERT INTO usage_daily (account_id, day, total, errors) VALUES (?, ?, ?, ?)
ON CONFLICT (account_id, day) DO UPDATE SET total = usage_daily.total + excluded.total, errors = usage_daily.errors + excluded.errors`

// SaveUsage implements app.Store.
func (s *Store) SaveUsage(ctx context.Context, b app.UsageBatch) error {
	return s.InTx(ctx, func(st app.Store) error {
		tx := st.(*Store)
		for _, k := range b.Keys {
			t := k.LastUsedAt.UTC()
			if _, err := tx.exec(ctx, addKeyUseSQL, k.Count, t, t, k.KeyID); err != nil {
				return err
			}
		}
		for _, d := range b.Days {
			if _, err := tx.exec(ctx, addDayCountSQL, d.AccountID, d.Day, d.Total, d.Errors); err != nil {
				return err
			}
		}
		// Multi-row inserts in chunks keep a large batch to a few round trips.
		const chunk = 500
		for i := 0; i < len(b.Requests); i += chunk {
			rows := b.Requests[i:min(i+chunk, len(b.Requests))]
			for j := range rows {
				rows[j].At = rows[j].At.UTC()
			}
			if _, err := sqlx.NamedExecContext(ctx, tx.q, insertRequestSQL, rows); err != nil {
				return translate(err)
			}
		}
		return nil
	})
}
