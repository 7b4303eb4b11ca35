package db

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

// accountRow is an account as stored.
type accountRow struct {
	ID                  string    `db:"id"`
	Subject             string    `db:"subject"`
	Email               string    `db:"email"`
	Tier                string    `db:"tier"`
	SubscriptionStatus  string    `db:"subscription_status"`
	Credits             int       `db:"credits"`
	CustomerID          *string   `db:"customer_id"`
	SubscriptionID      *string   `db:"subscription_id"`
	SubscriptionEventAt int64     `db:"subscription_event_at"`
	CreatedAt           time.Time `db:"created_at"`
	UpdatedAt           time.Time `db:"updated_at"`
}

func accountFromApp(a *app.Account) accountRow {
	return accountRow{ID: a.ID, Subject: a.Subject, Email: a.Email, Tier: string(a.Tier), SubscriptionStatus: a.SubscriptionStatus,
		Credits: a.Credits, CustomerID: a.CustomerID, SubscriptionID: a.SubscriptionID, SubscriptionEventAt: a.SubscriptionEventAt,
		CreatedAt: a.CreatedAt.UTC(), UpdatedAt: a.UpdatedAt.UTC()}
}

func (r *accountRow) toApp() *app.Account {
	return &app.Account{ID: r.ID, Subject: r.Subject, Email: r.Email, Tier: app.Tier(r.Tier), SubscriptionStatus: r.SubscriptionStatus,
		Credits: r.Credits, CustomerID: r.CustomerID, SubscriptionID: r.SubscriptionID, SubscriptionEventAt: r.SubscriptionEventAt,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

const accountColumns = `id, subject, email, tier, subscription_status, credits, customer_id, subscription_id, subscription_event_at, created_at, updated_at`

const findAccountSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE id = ?`

// FindAccount implements app.Store.
func (s *Store) FindAccount(ctx context.Context, id string) (*app.Account, error) {
	return s.findAccount(ctx, findAccountSQL, id)
}

const findAccountBySubjectSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE subject = ?`

// FindAccountBySubject implements app.Store.
func (s *Store) FindAccountBySubject(ctx context.Context, subject string) (*app.Account, error) {
	return s.findAccount(ctx, findAccountBySubjectSQL, subject)
}

const findAccountsByEmailSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE lower(email) = lower(?) ORDER BY created_at, id`

// FindAccountsByEmail implements app.Store.
func (s *Store) FindAccountsByEmail(ctx context.Context, email string) ([]app.Account, error) {
	var rows []accountRow
	if err := s.selectAll(ctx, &rows, findAccountsByEmailSQL, email); err != nil {
		return nil, err
	}
	out := make([]app.Account, len(rows))
	for i := range rows {
		out[i] = *rows[i].toApp()
	}
	return out, nil
}

func (s *Store) findAccount(ctx context.Context, query string, arg any) (*app.Account, error) {
	var r accountRow
	if err := s.get(ctx, &r, query, arg); err != nil {
		return nil, err
	}
	return r.toApp(), nil
}

const createAccountSQL = `INSERT INTO accounts (` + accountColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateAccount implements app.Store.
func (s *Store) CreateAccount(ctx context.Context, a *app.Account) error {
	r := accountFromApp(a)
	_, err := s.exec(ctx, createAccountSQL, r.ID, r.Subject, r.Email, r.Tier, r.SubscriptionStatus, r.Credits, r.CustomerID, r.SubscriptionID, r.SubscriptionEventAt, r.CreatedAt, r.UpdatedAt)
	return err
}
