package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

// keyRow is an API key as stored; its scopes are one comma-separated column
// so the same SQL serves PostgreSQL and SQLite.
type keyRow struct {
	ID           string     `db:"id"`
	AccountID    string     `db:"account_id"`
	Name         string     `db:"name"`
	Prefix       string     `db:"key_prefix"`
	Hash         []byte     `db:"key_hash"`
	Scopes       string     `db:"scopes"`
	RequestCount int64      `db:"request_count"`
	LastUsedAt   *time.Time `db:"last_used_at"`
	CreatedAt    time.Time  `db:"created_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
}

func keyFromApp(k *app.Key) keyRow {
	return keyRow{ID: k.ID, AccountID: k.AccountID, Name: k.Name, Prefix: k.Prefix, Hash: k.Hash, Scopes: strings.Join(k.Scopes, ","),
		RequestCount: k.RequestCount, LastUsedAt: utcPtr(k.LastUsedAt), CreatedAt: k.CreatedAt.UTC(), RevokedAt: utcPtr(k.RevokedAt)}
}

func (r *keyRow) toApp() *app.Key {
	scopes := app.Scopes{}
	if r.Scopes != "" {
		scopes = strings.Split(r.Scopes, ",")
	}
	return &app.Key{ID: r.ID, AccountID: r.AccountID, Name: r.Name, Prefix: r.Prefix, Hash: r.Hash, Scopes: scopes,
		RequestCount: r.RequestCount, LastUsedAt: utcPtr(r.LastUsedAt), CreatedAt: r.CreatedAt.UTC(), RevokedAt: utcPtr(r.RevokedAt)}
}

const keyColumns = `id, account_id, name, key_prefix, key_hash, scopes, request_count, last_used_at, created_at, revoked_at`

const createKeySQL = `INSERT INTO api_keys (` + keyColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

const countActiveKeysSQL = `SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL`

// CreateKey implements app.Store; createCapped keeps the cap exact across
// processes.
func (s *Store) CreateKey(ctx context.Context, k *app.Key, limit int) (bool, error) {
	return s.createCapped(ctx, k.AccountID, countActiveKeysSQL, limit, func(tx *Store) error {
		r := keyFromApp(k)
		_, err := tx.exec(ctx, createKeySQL, r.ID, r.AccountID, r.Name, r.Prefix, r.Hash, r.Scopes, r.RequestCount, r.LastUsedAt, r.CreatedAt, r.RevokedAt)
		return err
	})
}

// The key and its account in one round trip: this runs on every request.
// The hot statements below are scanned by hand (fields), not by sqlx's
// reflection.
const keyAccountColumns = `k.id, k.account_id, k.name, k.key_prefix, k.key_hash, k.scopes, k.request_count, k.last_used_at, k.created_at, k.revoked_at,
       a.id, a.subject, a.email, a.tier, a.subscription_status, a.credits, a.customer_id, a.subscription_id, a.subscription_event_at, a.created_at, a.updated_at`

const findActiveKeyByHashSQL = `SELECT ` + keyAccountColumns + `
FROM api_keys k JOIN accounts a ON a.id = k.account_id
WHERE k.key_hash = ? AND k.revoked_at IS NULL`

// fields are the scan destinations of keyColumns' columns, in order.
func (r *keyRow) fields() []any {
	return []any{&r.ID, &r.AccountID, &r.Name, &r.Prefix, &r.Hash, &r.Scopes, &r.RequestCount, &r.LastUsedAt, &r.CreatedAt, &r.RevokedAt}
}

// fields are the scan destinations of accountColumns' columns, in order.
func (r *accountRow) fields() []any {
	return []any{&r.ID, &r.Subject, &r.Email, &r.Tier, &r.SubscriptionStatus, &r.Credits, &r.CustomerID, &r.SubscriptionID,
		&r.SubscriptionEventAt, &r.CreatedAt, &r.UpdatedAt}
}

// queryRows runs a prepared query (outside transactions) and calls scan for
// each row; no row at all is app's not_found when one is required.
func (s *Store) queryRows(ctx context.Context, query string, scan func(*sql.Rows) error, args ...any) (int, error) {
	q, text, err := s.queryer(ctx, query)
	if err != nil {
		return 0, translate(err)
	}
	rows, err := q.QueryContext(ctx, text, args...)
	if err != nil {
		return 0, translate(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		if err := scan(rows); err != nil {
			return n, translate(err)
		}
		n++
	}
	return n, translate(rows.Err())
}

// FindActiveKeyByHash implements app.Store.
func (s *Store) FindActiveKeyByHash(ctx context.Context, hash []byte) (*app.Key, *app.Account, error) {
	var (
		k keyRow
		a accountRow
	)
	dest := append(k.fields(), a.fields()...)
	n, err := s.queryRows(ctx, findActiveKeyByHashSQL, func(r *sql.Rows) error { return r.Scan(dest...) }, hash)
	if err == nil && n == 0 {
		err = translate(sql.ErrNoRows)
	}
	if err != nil {
		return nil, nil, err
	}
	return k.toApp(), a.toApp(), nil
}

// The calling key's account and all its keys (the calling key among them,
// marked), newest first: authentication and the key list in one statement.
const findActiveKeyWithKeysSQL = `SELECT l.id = k.id,
       l.id, l.account_id, l.name, l.key_prefix, l.key_hash, l.scopes, l.request_count, l.last_used_at, l.created_at, l.revoked_at,
       a.id, a.subject, a.email, a.tier, a.subscription_status, a.credits, a.customer_id, a.subscription_id, a.subscription_event_at, a.created_at, a.updated_at
FROM api_keys k JOIN accounts a ON a.id = k.account_id
JOIN api_keys l ON l.account_id = k.account_id AND (l.revoked_at IS NULL OR ?)
WHERE k.key_hash = ? AND k.revoked_at IS NULL
ORDER BY l.created_at DESC, l.id`

// FindActiveKeyWithKeys implements app.Store.
func (s *Store) FindActiveKeyWithKeys(ctx context.Context, hash []byte, includeRevoked bool) (*app.Key, *app.Account, []app.Key, error) {
	var (
		self bool
		k    keyRow
		a    accountRow
		keys []app.Key
		me   = -1
	)
	dest := append(append([]any{&self}, k.fields()...), a.fields()...)
	n, err := s.queryRows(ctx, findActiveKeyWithKeysSQL, func(r *sql.Rows) error {
		k = keyRow{}
		if err := r.Scan(dest...); err != nil {
			return err
		}
		if self {
			me = len(keys)
		}
		keys = append(keys, *k.toApp())
		return nil
	}, includeRevoked, hash)
	if err == nil && (n == 0 || me < 0) {
		err = translate(sql.ErrNoRows)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	caller := keys[me]
	caller.Scopes = slices.Clone(caller.Scopes)
	return &caller, a.toApp(), keys, nil
}

// FindActiveKeyAndCharge implements app.Store. On PostgreSQL it is one
// statement: the key and its account found by the hash, and the key's pool
// charged within the limit of the account's plan by a conditional UPDATE
// (re-checked on the row's newest version when it waits on a concurrent
// charge, so a pool is never overrun), or, when the pool has no row yet, by
// the conditional upsert of consumeBudgetSQL. A refusal is the UPDATE's
// WHERE failing: it locks no row, so refused requests of one key do not
// queue behind each other as the upsert's lock made them. The plans'
// limits are data (a JSON object of plan to limit, a parameter), and the
// scope is one of the key's scopes exactly. SQLite, one connection and no
// data-modifying WITH, runs the two statements one after the other.
func (s *Store) FindActiveKeyAndCharge(ctx context.Context, hash []byte, c app.KeyCharge) (*app.Key, *app.Account, app.ChargeOutcome, error) {
	var out app.ChargeOutcome
	if !s.postgres {
		k, a, err := s.FindActiveKeyByHash(ctx, hash)
		if err != nil || !k.Has(c.Scope) {
			return k, a, out, err
		}
		out.Tried = true
		out.Used, out.OK, err = s.ConsumeBudget(ctx, k.ID, c.Kind, c.Period, c.N, c.Limit(a.Tier))
		return k, a, out, err
	}
	limits, err := json.Marshal(c.Limits)
	if err != nil {
		return nil, nil, out, err
	}
	var (
		k    keyRow
		a    accountRow
		used sql.NullInt64
	)
	dest := append(append(k.fields(), a.fields()...), &used)
	n, err := s.queryRows(ctx, chargeWithKeySQL, func(r *sql.Rows) error { return r.Scan(dest...) },
		string(limits), c.Limit(""), c.Scope, hash,
		c.N, c.Kind, c.Period, c.N,
		c.Kind, c.Period, c.N, c.N, c.Kind, c.Period)
	if err == nil && n == 0 {
		err = translate(sql.ErrNoRows)
	}
	if err != nil {
		return nil, nil, out, err
	}
	key := k.toApp()
	out.Tried = key.Has(c.Scope)
	out.OK, out.Used = used.Valid, int(used.Int64)
	return key, a.toApp(), out, nil
}

// chargeWithKeySQL: k is the key (with its plan's limit, looked up in the
// limits given, and whether it holds the scope), c the charge, tried only
// when the key holds the scope and n fits the limit at all.
const chargeWithKeySQL = `WITH k AS (
  SELECT k.id AS k_id, k.account_id AS k_account_id, k.name AS k_name, k.key_prefix AS k_key_prefix, k.key_hash AS k_key_hash,
         k.scopes AS k_scopes, k.request_count AS k_request_count, k.last_used_at AS k_last_used_at, k.created_at AS k_created_at,
         k.revoked_at AS k_revoked_at,
         a.id AS a_id, a.subject AS a_subject, a.email AS a_email, a.tier AS a_tier, a.subscription_status AS a_subscription_status,
         a.credits AS a_credits, a.customer_id AS a_customer_id, a.subscription_id AS a_subscription_id,
         a.subscription_event_at AS a_subscription_event_at, a.created_at AS a_created_at, a.updated_at AS a_updated_at,
         COALESCE(CAST(CAST(? AS jsonb) ->> a.tier AS integer), CAST(? AS integer)) AS lim,
         CAST(? AS text) = ANY (string_to_array(k.scopes, ',')) AS scoped
  FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.key_hash = ? AND k.revoked_at IS NULL
), u AS (
  UPDATE budget_usage SET used = used + CAST(? AS integer)
  FROM k
  WHERE owner_id = CAST(k_id AS text) AND kind = ? AND period = ? AND scoped
    AND (lim < 0 OR used + CAST(? AS integer) <= lim)
  RETURNING used
), i AS (
  INSERT INTO budget_usage (owner_id, kind, period, used)
  SELECT CAST(k_id AS text), ?, ?, CAST(? AS integer) FROM k
  WHERE scoped AND (lim < 0 OR CAST(? AS integer) <= lim)
    AND NOT EXISTS (SELECT 1 FROM budget_usage b WHERE b.owner_id = CAST(k_id AS text) AND b.kind = ? AND b.period = ?)
  ON CONFLICT (owner_id, kind, period) DO UPDATE SET used = budget_usage.used + excluded.used
  WHERE (SELECT lim FROM k) < 0 OR budget_usage.used + excluded.used <= (SELECT lim FROM k)
  RETURNING used
)
SELECT k_id, k_account_id, k_name, k_key_prefix, k_key_hash, k_scopes, k_request_count, k_last_used_at, k_created_at, k_revoked_at,
       a_id, a_subject, a_email, a_tier, a_subscription_status, a_credits, a_customer_id, a_subscription_id,
       a_subscription_event_at, a_created_at, a_updated_at,
       COALESCE((SELECT used FROM u), (SELECT used FROM i))
FROM k`

const findKeysSQL = `SELECT ` + keyColumns + ` FROM api_keys WHERE account_id = ? AND (revoked_at IS NULL OR ?) ORDER BY created_at DESC, id`

// FindKeys implements app.Store.
func (s *Store) FindKeys(ctx context.Context, f app.KeyFilter) ([]app.Key, error) {
	var rows []keyRow
	if err := s.selectAll(ctx, &rows, findKeysSQL, f.AccountID, f.IncludeRevoked); err != nil {
		return nil, err
	}
	keys := make([]app.Key, len(rows))
	for i := range rows {
		keys[i] = *rows[i].toApp()
	}
	return keys, nil
}

// Revoking an already revoked key keeps its first revokedAt.
const revokeKeySQL = `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND account_id = ?
RETURNING ` + keyColumns

// RevokeKey implements app.Store.
func (s *Store) RevokeKey(ctx context.Context, accountID, id string, at time.Time) (*app.Key, error) {
	var k keyRow
	if err := s.get(ctx, &k, revokeKeySQL, at.UTC(), id, accountID); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, "API key not found")
		}
		return nil, err
	}
	return k.toApp(), nil
}
