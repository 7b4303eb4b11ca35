package app

import (
	"context"
	"time"
)

// Principal is who is calling: an account, through one of its API keys or
// through an account session (Key nil).
type Principal struct {
	Account Account
	Key     *Key
	// Expires is when an account session's token expires (its exp
	// claim); zero for an API key.
	Expires time.Time
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p; transports call it once they have
// authenticated the request.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller, if the request is authenticated.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok && p != nil
}

func principalFrom(ctx context.Context) (*Principal, error) {
	if p, ok := PrincipalFrom(ctx); ok {
		return p, nil
	}
	return nil, ErrUnauthenticated()
}

// Authorize is the caller of operation op: unauthenticated without one,
// forbidden when its key lacks op's scope. Op "" is an account operation
// any credential of the account may use.
func Authorize(ctx context.Context, op Operation) (*Principal, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if err := missingScope(p, ScopeOf(op)); err != nil {
		return nil, err
	}
	return p, nil
}

// missingScope is the 403 of a key without scope, nil when p may act:
// account sessions are not scope-limited.
func missingScope(p *Principal, scope string) error {
	if p.Key == nil || scope == "" || p.Key.Has(scope) {
		return nil
	}
	return &Error{
		Code:    CodeForbidden,
		Message: "API key missing required scope: " + scope,
		Data:    map[string]any{"requiredScope": scope},
	}
}
