package app

import (
	"context"
	"time"
)

// Store is the persistence the service needs. db.Store implements it for
// PostgreSQL and SQLite. Methods translate their errors: a missing row is
// CodeNotFound, a unique violation CodeConflict; none returns nil, nil.
type Store interface {
	// InTx runs fn with a Store whose methods share one transaction,
	// committed when fn returns nil and rolled back otherwise.
	InTx(ctx context.Context, fn func(Store) error) error

	FindAccount(ctx context.Context, id string) (*Account, error)
	FindAccountBySubject(ctx context.Context, subject string) (*Account, error)
	CreateAccount(ctx context.Context, a *Account) error

	CreateKey(ctx context.Context, k *Key) error
	// FindActiveKeyByHash returns an unrevoked key and its account.
	FindActiveKeyByHash(ctx context.Context, hash []byte) (*Key, *Account, error)
	FindKeys(ctx context.Context, f KeyFilter) ([]Key, error)
	RevokeKey(ctx context.Context, accountID, id string, at time.Time) (*Key, error)

	// SaveUsage applies a batch of request records: key counters, raw log
	// rows and per-day counts, in one transaction.
	SaveUsage(ctx context.Context, b UsageBatch) error
}
