package db

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

type feedTokenRow struct {
	AccountID string    `db:"account_id"`
	Hash      []byte    `db:"token_hash"`
	Prefix    string    `db:"prefix"`
	CreatedAt time.Time `db:"created_at"`
}

func (r *feedTokenRow) toApp() *monitor.FeedToken {
	return &monitor.FeedToken{AccountID: r.AccountID, Hash: r.Hash, Prefix: r.Prefix, CreatedAt: r.CreatedAt.UTC()}
}

// One row per account: saving a token replaces the account's previous one
// in one statement, so there is never a moment with both, or with none.
const saveFeedTokenSQL = `INSERT INTO feed_tokens (account_id, token_hash, prefix, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (account_id) DO UPDATE SET token_hash = excluded.token_hash, prefix = excluded.prefix, created_at = excluded.created_at`

// SaveFeedToken implements app.Store.
func (s *Store) SaveFeedToken(ctx context.Context, t *monitor.FeedToken) error {
	_, err := s.exec(ctx, saveFeedTokenSQL, t.AccountID, t.Hash, t.Prefix, t.CreatedAt.UTC())
	return err
}

const (
	feedTokenColumns         = `account_id, token_hash, prefix, created_at`
	findFeedTokenSQL         = `SELECT ` + feedTokenColumns + ` FROM feed_tokens WHERE account_id = ?`
	findFeedTokenByHashSQL   = `SELECT ` + feedTokenColumns + ` FROM feed_tokens WHERE token_hash = ?`
	feedTokenNotFoundMessage = "no feed token"
)

// FindFeedToken implements app.Store.
func (s *Store) FindFeedToken(ctx context.Context, accountID string) (*monitor.FeedToken, error) {
	return s.findFeedToken(ctx, findFeedTokenSQL, accountID)
}

// FindFeedTokenByHash implements app.Store. Every feed read asks the
// database, never a cache: a rotated token is refused at once everywhere.
func (s *Store) FindFeedTokenByHash(ctx context.Context, hash []byte) (*monitor.FeedToken, error) {
	return s.findFeedToken(ctx, findFeedTokenByHashSQL, hash)
}

func (s *Store) findFeedToken(ctx context.Context, q string, arg any) (*monitor.FeedToken, error) {
	var r feedTokenRow
	if err := s.get(ctx, &r, q, arg); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, feedTokenNotFoundMessage)
		}
		return nil, err
	}
	return r.toApp(), nil
}
