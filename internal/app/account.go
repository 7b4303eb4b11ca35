package app

import (
	"context"
	"net/mail"
	"strings"
	"time"
)

// Tier is an account's plan.
type Tier string

const (
	TierFree     Tier = "free"
	TierBase     Tier = "base"
	TierAdvanced Tier = "advanced"
)

// Valid reports whether t is one of the three plans.
func (t Tier) Valid() bool { return t == TierFree || t == TierBase || t == TierAdvanced }

// Account is a paying (or free) customer. Its tier is the "public metadata"
// of the contract: the payment webhook sets it, every key of the account uses it.
type Account struct {
	ID                 string
	Subject            string // identity-provider subject; "local:<email>" for CLI-made accounts
	Email              string
	Tier               Tier
	SubscriptionStatus string
	Credits            int
	CustomerID         *string
	SubscriptionID     *string
	// SubscriptionEventAt is the provider's created-time (Unix seconds) of
	// the newest subscription event applied, so late deliveries change nothing.
	SubscriptionEventAt int64
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// Identity is what a verified account session says about its holder.
type Identity struct {
	Subject string
	Email   string
	// Expires is when the token ends (its exp claim, which every token must
	// carry); a sign-out's revocation is kept until then.
	Expires time.Time
}

// SessionVerifier checks an account-session token (a JWT from the identity
// provider, or the local one in the zero-setup mode).
type SessionVerifier interface {
	Verify(ctx context.Context, token string) (Identity, error)
}

// ValidEmail reports whether s is one bare address, local@domain (no name,
// no angle brackets, no list), as an account made from an address on the
// command line must have: "@" held an "@" and made an account no one is.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= 254
}

// LocalSubject is the subject of an account made from an email address on
// this machine (CLI key creation, the zero-setup owner).
func LocalSubject(email string) string { return "local:" + strings.ToLower(strings.TrimSpace(email)) }

// Viewer returns the calling account, as this request's authentication read
// it (the key lookup joins the account; a session ensures it), so a viewer
// field costs no second round trip.
func (s *Service) Viewer(ctx context.Context) (*Account, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	a := p.Account
	return &a, nil
}

// EnsureAccount finds the account of a subject or creates it on first sight.
func (s *Service) EnsureAccount(ctx context.Context, id Identity) (*Account, error) {
	a, err := s.store.FindAccountBySubject(ctx, id.Subject)
	if err == nil || ErrorCode(err) != CodeNotFound {
		return a, err
	}
	now := s.now()
	a = &Account{ID: newID(), Subject: id.Subject, Email: id.Email, Tier: TierFree, CreatedAt: now, UpdatedAt: now}
	err = s.store.CreateAccount(ctx, a)
	if ErrorCode(err) == CodeConflict {
		// Another request (or process) created it first: use theirs.
		return s.store.FindAccountBySubject(ctx, id.Subject)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// SetPlan is the operator's way to change plans on a self-hosted instance
// (`clausewatch account plan`): it sets the plan of every account of email,
// creating the local account of that address when there is none, so a plan
// can be set before the first key. It takes no principal: only someone with
// the database (the command line) can call it. In production the payment
// webhook changes plans; a later subscription event overrides this.
func (s *Service) SetPlan(ctx context.Context, email string, tier Tier) ([]Account, error) {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return nil, &Error{Code: CodeInvalid, Message: "invalid request", Fields: []FieldError{{Field: "email", Message: "must be an email address"}}}
	}
	if !tier.Valid() {
		return nil, &Error{Code: CodeInvalid, Message: "invalid request", Fields: []FieldError{{Field: "plan", Message: "must be one of free, base, advanced"}}}
	}
	accts, err := s.store.FindAccountsByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	if len(accts) == 0 {
		a, err := s.EnsureAccount(ctx, Identity{Subject: LocalSubject(email), Email: email})
		if err != nil {
			return nil, err
		}
		accts = []Account{*a}
	}
	for i := range accts {
		if err := s.store.UpdateBilling(ctx, accts[i].ID, BillingUpdate{Tier: &tier}); err != nil {
			return nil, err
		}
		accts[i].Tier = tier
	}
	return accts, nil
}
