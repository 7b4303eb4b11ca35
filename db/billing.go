package db

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

const recordPaymentEventSQL = `INSERT INTO payment_events (id, type, livemode, recorded_at) VALUES (?, ?, ?, ?)`

// RecordPaymentEvent implements app.Store.
func (s *Store) RecordPaymentEvent(ctx context.Context, id, typ string, livemode bool, at time.Time) error {
	_, err := s.exec(ctx, recordPaymentEventSQL, id, typ, livemode, at.UTC())
	return err
}

const findAccountByCustomerSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE customer_id = ?`

// FindAccountByCustomer implements app.Store.
func (s *Store) FindAccountByCustomer(ctx context.Context, customerID string) (*app.Account, error) {
	return s.findAccount(ctx, findAccountByCustomerSQL, customerID)
}

// A nil argument leaves its column as it is (COALESCE). With an event
// (has_event), the WHERE decides whether it may follow the history applied:
// never older than the last event applied, and within the same second
//   - ending a subscription the account no longer holds changes nothing;
//   - an ended subscription is never revived, whatever the time;
//   - an event naming no subscription follows an end only if newer.
const updateBillingSQL = `UPDATE accounts SET updated_at = ?,
  customer_id = COALESCE(?, customer_id), tier = COALESCE(?, tier),
  subscription_status = COALESCE(?, subscription_status), subscription_id = COALESCE(?, subscription_id),
  subscription_event_at = COALESCE(?, subscription_event_at), subscription_ended = COALESCE(?, subscription_ended)
WHERE id = ? AND (NOT ? OR (subscription_event_at <= ? AND CASE
  WHEN ? AND ? <> '' THEN subscription_id IS NULL OR subscription_id = ?
  WHEN ? THEN true
  WHEN ? <> '' THEN NOT subscription_ended OR COALESCE(subscription_id, '') <> ?
  ELSE NOT subscription_ended OR subscription_event_at < ? END))`

// UpdateBilling implements app.Store: it sets only the fields given and,
// with an Event, only if the event may follow the subscription history
// already applied. That decision is in the statement itself: PostgreSQL
// re-checks the WHERE against a row another transaction just changed, and
// SQLite runs one writer at a time, so events applied concurrently, in any
// process, cannot let an older state or a revival win.
func (s *Store) UpdateBilling(ctx context.Context, accountID string, u app.BillingUpdate) error {
	var tier *string
	if u.Tier != nil {
		t := string(*u.Tier)
		tier = &t
	}
	var (
		ev       app.SubscriptionEvent
		eventAt  *int64
		ended    *bool
		hasEvent = u.Event != nil
	)
	if hasEvent {
		ev = *u.Event
		eventAt = &ev.At
		if ev.Ends || u.SubscriptionID != nil {
			ended = &ev.Ends
		}
	}
	_, err := s.exec(ctx, updateBillingSQL, time.Now().UTC(), u.CustomerID, tier, u.Status, u.SubscriptionID, eventAt, ended,
		accountID, hasEvent, ev.At, ev.Ends, ev.Subscription, ev.Subscription, ev.Ends, ev.Subscription, ev.Subscription, ev.At)
	return err
}

const grantCreditsSQL = `INSERT INTO credit_grants (checkout_session_id, account_id, credits, granted_at)
VALUES (?, ?, ?, ?) ON CONFLICT (checkout_session_id) DO NOTHING`

// GrantCredits implements app.Store. The session's row is the grant: a
// second one for the same session, even concurrent in another process,
// waits on the first and then inserts nothing, so no credits are added twice.
func (s *Store) GrantCredits(ctx context.Context, sessionID, accountID string, n int, at time.Time) (bool, error) {
	if ok, err := oneRow(s.exec(ctx, grantCreditsSQL, sessionID, accountID, n, at.UTC())); err != nil || !ok {
		return false, err
	}
	return true, s.AddCredits(ctx, accountID, n)
}

const saveInvoiceSQL = `INSERT INTO invoices (id, account_id, customer_id, subscription_id, amount_paid, currency, status, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`

// SaveInvoice implements app.Store.
func (s *Store) SaveInvoice(ctx context.Context, inv *app.Invoice) error {
	_, err := s.exec(ctx, saveInvoiceSQL, inv.ID, inv.AccountID, inv.CustomerID, inv.SubscriptionID, inv.AmountPaid, inv.Currency, inv.Status, inv.CreatedAt.UTC())
	return err
}
