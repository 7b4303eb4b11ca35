package db

import (
	"context"
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
const findActiveKeyByHashSQL = `
SELECT k.id, k.account_id, k.name, k.key_prefix, k.key_hash, k.scopes, k.request_count, k.last_used_at, k.created_at, k.revoked_at,
       a.id AS "a.id", a.subject AS "a.subject", a.email AS "a.email", a.tier AS "a.tier",
       a.subscription_status AS "a.subscription_status", a.credits AS "a.credits", a.customer_id AS "a.customer_id",
       a.subscription_id AS "a.subscription_id", a.subscription_event_at AS "a.subscription_event_at",
       a.created_at AS "a.created_at", a.updated_at AS "a.updated_at"
FROM api_keys k JOIN accounts a ON a.id = k.account_id
WHERE k.key_hash = ? AND k.revoked_at IS NULL`

type keyAccountRow struct {
	keyRow
	A accountRow `db:"a"`
}

// FindActiveKeyByHash implements app.Store.
func (s *Store) FindActiveKeyByHash(ctx context.Context, hash []byte) (*app.Key, *app.Account, error) {
	var r keyAccountRow
	if err := s.get(ctx, &r, findActiveKeyByHashSQL, hash); err != nil {
		return nil, nil, err
	}
	return r.keyRow.toApp(), r.A.toApp(), nil
}

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
