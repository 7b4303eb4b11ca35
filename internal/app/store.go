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
	// FindAccountsByEmail returns the accounts of an address, compared
	// without case, oldest first (none: an empty slice).
	FindAccountsByEmail(ctx context.Context, email string) ([]Account, error)

	// CreateKey inserts k unless the account already holds limit active
	// keys (false, nil then); concurrent creations cannot pass the limit.
	CreateKey(ctx context.Context, k *Key, limit int) (bool, error)
	// FindActiveKeyByHash returns an unrevoked key and its account.
	FindActiveKeyByHash(ctx context.Context, hash []byte) (*Key, *Account, error)
	// FindActiveKeyWithKeys is FindActiveKeyByHash and FindKeys of the
	// key's account in one statement (the key list's authentication).
	FindActiveKeyWithKeys(ctx context.Context, hash []byte, includeRevoked bool) (*Key, *Account, []Key, error)
	// FindActiveKeyAndCharge is FindActiveKeyByHash and, when the key holds
	// c.Scope, ConsumeBudget of c.N on the key's own pool (owner the key,
	// limit the one of its account's tier) in one statement. Charged says
	// whether the charge was tried at all (the key holds the scope, n is
	// within the tier's limit), OK whether it was taken, Used the new total.
	FindActiveKeyAndCharge(ctx context.Context, hash []byte, c KeyCharge) (*Key, *Account, ChargeOutcome, error)
	FindKeys(ctx context.Context, f KeyFilter) ([]Key, error)
	RevokeKey(ctx context.Context, accountID, id string, at time.Time) (*Key, error)

	// SaveUsage applies a batch of request records: key counters, raw log
	// rows and per-day counts, in one transaction.
	SaveUsage(ctx context.Context, b UsageBatch) error
	// FindDayCounts returns an account's per-day counts from day on.
	FindDayCounts(ctx context.Context, accountID, fromDay string) ([]DayCount, error)
	// FindRecentErrors returns the newest failed requests since from.
	FindRecentErrors(ctx context.Context, accountID string, from time.Time, limit int) ([]RecentError, error)
	// PruneRequests deletes raw request-log rows before t.
	PruneRequests(ctx context.Context, before time.Time) (int64, error)

	budgetStore
	billingStore
	sessionStore

	CreateAnalysis(ctx context.Context, accountID string, keyID *string, a *Analysis) error
	// FindAnalysis reads the parts of one stored analysis asked for: its
	// id, grade and score always.
	FindAnalysis(ctx context.Context, accountID, id string, parts AnalysisParts) (*Analysis, error)
	// FindAnalyses returns up to limit analyses after the cursor, newest
	// first, with their Text only when withText is set (a page would
	// otherwise read whole documents nobody asked for).
	FindAnalyses(ctx context.Context, accountID string, after *PageCursor, limit int, withText bool) ([]Analysis, error)
}

// KeyCharge is a charge of N on a key's own pool of Kind in Period, taken
// with the key's authentication when the key holds Scope (exactly); Limits
// is the pool's limit per plan, data the store passes on (a plan not named
// uses Limits[TierFree]).
type KeyCharge struct {
	Scope, Kind, Period string
	N                   int
	Limits              map[Tier]int
}

// Limit is the pool's limit for an account of tier t.
func (c KeyCharge) Limit(t Tier) int {
	if l, ok := c.Limits[t]; ok {
		return l
	}
	return c.Limits[TierFree]
}

// ChargeOutcome is what FindActiveKeyAndCharge did with its charge.
type ChargeOutcome struct {
	Tried, OK bool
	Used      int
}

// Payment-event methods, run inside InTx.
type billingStore interface {
	// RecordPaymentEvent is CodeConflict when the id was recorded before.
	RecordPaymentEvent(ctx context.Context, id, typ string, livemode bool, at time.Time) error
	// FindAccountByCustomer is CodeNotFound when no account holds the
	// customer (the webhook then falls back to metadata, or skips).
	FindAccountByCustomer(ctx context.Context, customerID string) (*Account, error)
	// UpdateBilling sets the given fields; with an Event it changes nothing
	// when the event may not follow those already applied (SubscriptionEvent).
	UpdateBilling(ctx context.Context, accountID string, u BillingUpdate) error
	// GrantCredits adds n credits for a checkout session, once: false, and
	// nothing changes, when that session was granted before.
	GrantCredits(ctx context.Context, sessionID, accountID string, n int, at time.Time) (bool, error)
	SaveInvoice(ctx context.Context, inv *Invoice) error
}

// Budget and credit methods: each is one atomic statement.
type budgetStore interface {
	// ConsumeBudget adds n to a pool's window if the total stays within
	// limit (limit < 0: no limit) and returns the new total; ok is false,
	// and nothing changes, when it would not.
	ConsumeBudget(ctx context.Context, owner, kind, period string, n, limit int) (used int, ok bool, err error)
	RefundBudget(ctx context.Context, owner, kind, period string, n int) error
	// BudgetUsed returns the used amount per owner (absent: 0).
	BudgetUsed(ctx context.Context, owners []string, kind, period string) (map[string]int, error)
	// ConsumeCredits takes n credits if the account has them.
	ConsumeCredits(ctx context.Context, accountID string, n int) (bool, error)
	AddCredits(ctx context.Context, accountID string, n int) error
}
