package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/internal/app"
)

// One statement decides and records: the row lock taken by ON CONFLICT makes
// concurrent consumers (any number of processes) queue, and the WHERE sees
// the committed total, so a budget can never be overrun.
const consumeBudgetSQL = `INSERT INTO budget_usage (owner_id, kind, period, used) VALUES (?, ?, ?, ?)
ON CONFLICT (owner_id, kind, period) DO UPDATE SET used = budget_usage.used + excluded.used
WHERE ? < 0 OR budget_usage.used + excluded.used <= ?
RETURNING used`

// ConsumeBudget implements app.Store.
func (s *Store) ConsumeBudget(ctx context.Context, owner, kind, period string, n, limit int) (int, bool, error) {
	if limit >= 0 && n > limit {
		return 0, false, nil
	}
	var used int
	err := s.get(ctx, &used, consumeBudgetSQL, owner, kind, period, n, limit, limit)
	if app.ErrorCode(err) == app.CodeNotFound {
		return 0, false, nil // the WHERE refused the update: no row returned
	}
	if err != nil {
		return 0, false, err
	}
	return used, true, nil
}

const refundBudgetSQL = `UPDATE budget_usage SET used = CASE WHEN used >= ? THEN used - ? ELSE 0 END
WHERE owner_id = ? AND kind = ? AND period = ?`

// RefundBudget implements app.Store.
func (s *Store) RefundBudget(ctx context.Context, owner, kind, period string, n int) error {
	_, err := s.exec(ctx, refundBudgetSQL, n, n, owner, kind, period)
	return err
}

const budgetUsedSQL = `SELECT owner_id, used FROM budget_usage WHERE kind = ? AND period = ? AND owner_id IN (?)`

// BudgetUsed implements app.Store.
func (s *Store) BudgetUsed(ctx context.Context, owners []string, kind, period string) (map[string]int, error) {
	out := map[string]int{}
	if len(owners) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(budgetUsedSQL, kind, period, owners)
	if err != nil {
		return nil, app.Internal(err)
	}
	var rows []struct {
		Owner string `db:"owner_id"`
		Used  int    `db:"used"`
	}
	// Not prepared: the IN list's length varies, and each length would be
	// another statement kept on every connection.
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(q), args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.Owner] = r.Used
	}
	return out, nil
}

const consumeCreditsSQL = `UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ?`

// ConsumeCredits implements app.Store.
func (s *Store) ConsumeCredits(ctx context.Context, accountID string, n int) (bool, error) {
	return oneRow(s.exec(ctx, consumeCreditsSQL, n, accountID, n))
}

const addCreditsSQL = `UPDATE accounts SET credits = credits + ? WHERE id = ?`

// AddCredits implements app.Store.
func (s *Store) AddCredits(ctx context.Context, accountID string, n int) error {
	_, err := s.exec(ctx, addCreditsSQL, n, accountID)
	return err
}
