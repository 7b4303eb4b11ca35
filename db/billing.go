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
	var a app.Account
	if err := s.get(ctx, &a, findAccountByCustomerSQL, customerID); err != nil {
		return nil, err
	}
	return utcAccount(&a), nil
}

// UpdateBilling implements app.Store: it sets only the fields given, and
// with EventAt only if no newer event was applied.
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
	if u.EventAt != nil {
		add("subscription_event_at", *u.EventAt)
	}
	where := ` WHERE id = ?`
	args = append(args, accountID)
	if u.EventAt != nil {
		// The guard against late deliveries is in the statement itself, so
		// two events applied concurrently cannot let the older one win.
		where += ` AND subscription_event_at <= ?`
		args = append(args, *u.EventAt)
	}
	_, err := s.exec(ctx, `UPDATE accounts SET `+strings.Join(sets, ", ")+where, args...)
	return err
}

const saveInvoiceSQL = `INSERT INTO invoices (id, account_id, customer_id, subscription_id, amount_paid, currency, status, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`

// SaveInvoice implements app.Store.
func (s *Store) SaveInvoice(ctx context.Context, inv *app.Invoice) error {
	_, err := s.exec(ctx, saveInvoiceSQL, inv.ID, inv.AccountID, inv.CustomerID, inv.SubscriptionID, inv.AmountPaid, inv.Currency, inv.Status, inv.CreatedAt.UTC())
	return err
}
