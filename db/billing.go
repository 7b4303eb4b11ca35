package db

import (
	"context"
	"strings"
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

// UpdateBilling implements app.Store: it sets only the fields given and,
// with an Event, only if the event may follow the subscription history
// already applied. That decision is in the statement itself: PostgreSQL
// re-checks the WHERE against a row another transaction just changed, and
// SQLite runs one writer at a time, so events applied concurrently, in any
// process, cannot let an older state or a revival win.
func (s *Store) UpdateBilling(ctx context.Context, accountID string, u app.BillingUpdate) error {
	sets := []string{"updated_at = ?"}
	args := []any{time.Now().UTC()}
	add := func(col string, v any) {
		sets = append(sets, col+" = ?")
		args = append(args, v)
	}
	if u.CustomerID != nil {
		add("customer_id", *u.CustomerID)
	}
	if u.Tier != nil {
		add("tier", string(*u.Tier))
	}
	if u.Status != nil {
		add("subscription_status", *u.Status)
	}
	if u.SubscriptionID != nil {
		add("subscription_id", *u.SubscriptionID)
	}
	ev := u.Event
	if ev != nil {
		add("subscription_event_at", ev.At)
		if ev.Ends || u.SubscriptionID != nil {
			add("subscription_ended", ev.Ends)
		}
	}
	where := ` WHERE id = ?`
	args = append(args, accountID)
	if ev != nil {
		// Never older than the last event applied; within the same second:
		where += ` AND subscription_event_at <= ?`
		args = append(args, ev.At)
		switch {
		case ev.Ends && ev.Subscription != "":
			// ending a subscription the account no longer holds changes nothing;
			where += ` AND (subscription_id IS NULL OR subscription_id = ?)`
			args = append(args, ev.Subscription)
		case ev.Ends:
		case ev.Subscription != "":
			// an ended subscription is never revived, whatever the time;
			where += ` AND (NOT subscription_ended OR COALESCE(subscription_id, '') <> ?)`
			args = append(args, ev.Subscription)
		default:
			// an event naming no subscription follows an end only if newer.
			where += ` AND (NOT subscription_ended OR subscription_event_at < ?)`
			args = append(args, ev.At)
		}
	}
	_, err := s.exec(ctx, `UPDATE accounts SET `+strings.Join(sets, ", ")+where, args...)
	return err
}

const grantCreditsSQL = `INSERT INTO credit_grants (checkout_session_id, account_id, credits, granted_at)
VALUES (?, ?, ?, ?) ON CONFLICT (checkout_session_id) DO NOTHING`

// GrantCredits implements app.Store. The session's row is the grant: a
// second one for the same session, even concurrent in another process,
// waits on the first and then inserts nothing, so no credits are added twice.
func (s *Store) GrantCredits(ctx context.Context, sessionID, accountID string, n int, at time.Time) (bool, error) {
	r, err := s.exec(ctx, grantCreditsSQL, sessionID, accountID, n, at.UTC())
	if err != nil {
		return false, err
	}
	if k, err := r.RowsAffected(); err != nil || k == 0 {
		return false, translate(err)
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
