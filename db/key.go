package db

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

const keyColumns = `id, account_id, name, key_prefix, key_hash, scopes, request_count, last_used_at, created_at, revoked_at`

const createKeySQL = `INSERT INTO api_keys (` + keyColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

const countActiveKeysSQL = `SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL`

// CreateKey implements app.Store; createCapped keeps the cap exact across
// processes.
func (s *Store) CreateKey(ctx context.Context, k *app.Key, limit int) (bool, error) {
	return s.createCapped(ctx, k.AccountID, countActiveKeysSQL, limit, func(tx *Store) error {
		_, err := tx.exec(ctx, createKeySQL, k.ID, k.AccountID, k.Name, k.Prefix, k.Hash, k.Scopes, k.RequestCount, k.LastUsedAt, k.CreatedAt.UTC(), k.RevokedAt)
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
	app.Key
	A app.Account `db:"a"`
}

// FindActiveKeyByHash implements app.Store.
func (s *Store) FindActiveKeyByHash(ctx context.Context, hash []byte) (*app.Key, *app.Account, error) {
	var r keyAccountRow
	if err := s.get(ctx, &r, findActiveKeyByHashSQL, hash); err != nil {
		return nil, nil, err
	}
	return utcKey(&r.Key), utcAccount(&r.A), nil
}

const findKeysSQL = `SELECT ` + keyColumns + ` FROM api_keys WHERE account_id = ? AND (revoked_at IS NULL OR ?) ORDER BY created_at DESC, id`

// FindKeys implements app.Store.
func (s *Store) FindKeys(ctx context.Context, f app.KeyFilter) ([]app.Key, error) {
	keys := []app.Key{}
	if err := s.selectAll(ctx, &keys, findKeysSQL, f.AccountID, f.IncludeRevoked); err != nil {
		return nil, err
	}
	for i := range keys {
		utcKey(&keys[i])
	}
	return keys, nil
}

// Revoking an already revoked key keeps its first revokedAt.
const revokeKeySQL = `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND account_id = ?
RETURNING ` + keyColumns

// RevokeKey implements app.Store.
func (s *Store) RevokeKey(ctx context.Context, accountID, id string, at time.Time) (*app.Key, error) {
	var k app.Key
	if err := s.get(ctx, &k, revokeKeySQL, at.UTC(), id, accountID); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, "API key not found")
		}
		return nil, err
	}
	return utcKey(&k), nil
}

func utcKey(k *app.Key) *app.Key {
	k.CreatedAt = k.CreatedAt.UTC()
	if k.LastUsedAt != nil {
		t := k.LastUsedAt.UTC()
		k.LastUsedAt = &t
	}
	if k.RevokedAt != nil {
		t := k.RevokedAt.UTC()
		k.RevokedAt = &t
	}
	return k
}
