package db

import (
	"context"
	"time"
)

// Signing out twice keeps the first row: the token's expiry does not change.
const revokeSessionSQL = `INSERT INTO revoked_sessions (token_hash, expires_at) VALUES (?, ?) ON CONFLICT (token_hash) DO NOTHING`

// RevokeSession implements app.Store.
func (s *Store) RevokeSession(ctx context.Context, id []byte, expires time.Time) error {
	_, err := s.exec(ctx, revokeSessionSQL, id, expires.UTC())
	return err
}

const sessionRevokedSQL = `SELECT EXISTS (SELECT 1 FROM revoked_sessions WHERE token_hash IN (?, ?))`

// SessionRevoked implements app.Store. The column keeps its name: it holds
// session ids now (app's sessionID), and old rows the tokens' hashes.
func (s *Store) SessionRevoked(ctx context.Context, id, legacy []byte) (bool, error) {
	var revoked bool
	err := s.get(ctx, &revoked, sessionRevokedSQL, id, legacy)
	return revoked, err
}

const pruneSessionRevocationsSQL = `DELETE FROM revoked_sessions WHERE expires_at < ?`

// PruneSessionRevocations implements app.Store.
func (s *Store) PruneSessionRevocations(ctx context.Context, before time.Time) (int64, error) {
	return affected(s.exec(ctx, pruneSessionRevocationsSQL, before.UTC()))
}
