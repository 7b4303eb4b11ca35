package db

import (
	"context"

	"github.com/clausewatch/clausewatch/internal/app"
)

const accountColumns = `id, subject, email, tier, subscription_status, credits, customer_id, subscription_id, subscription_event_at, created_at, updated_at`

const findAccountSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE id = ?`

// FindAccount implements app.Store.
func (s *Store) FindAccount(ctx context.Context, id string) (*app.Account, error) {
	var a app.Account
	if err := s.get(ctx, &a, findAccountSQL, id); err != nil {
		return nil, err
	}
	return utcAccount(&a), nil
}

const findAccountBySubjectSQL = `SELECT ` + accountColumns + ` FROM accounts WHERE subject = ?`

// FindAccountBySubject implements app.Store.
func (s *Store) FindAccountBySubject(ctx context.Context, subject string) (*app.Account, error) {
	var a app.Account
	if err := s.get(ctx, &a, findAccountBySubjectSQL, subject); err != nil {
		return nil, err
	}
	return utcAccount(&a), nil
}

const createAccountSQL = `INSERT INTO accounts (` + accountColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateAccount implements app.Store.
func (s *Store) CreateAccount(ctx context.Context, a *app.Account) error {
	_, err := s.exec(ctx, createAccountSQL, a.ID, a.Subject, a.Email, a.Tier, a.SubscriptionStatus, a.Credits, a.CustomerID, a.SubscriptionID, a.SubscriptionEventAt, a.CreatedAt.UTC(), a.UpdatedAt.UTC())
	return err
}

func utcAccount(a *app.Account) *app.Account {
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	return a
}
