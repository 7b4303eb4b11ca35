package app

import (
	"context"
	"strings"
)

// Principal is who is calling: an account, through one of its API keys or
// through an account session (Key nil).
type Principal struct {
	Account Account
	Key     *Key
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

// Require checks that the caller may use an operation needing scope. Account
// sessions are not scope-limited; keys must hold the scope.
func Require(ctx context.Context, scope string) error {
	p, err := principalFrom(ctx)
	if err != nil {
		return err
	}
	if p.Key == nil || p.Key.Has(scope) {
		return nil
	}
	return &Error{
		Code:    CodeForbidden,
		Message: "API key missing required scope: " + scope,
		Data:    map[string]any{"requiredScope": scope},
	}
}

// Authenticate resolves a bearer credential: an API key (cwsk_...) or an
// account-session token. Every failure is the same unauthenticated error.
func (s *Service) Authenticate(ctx context.Context, bearer string) (*Principal, error) {
	if strings.HasPrefix(bearer, KeyPrefix) {
		if !WellFormedKey(bearer) {
			return nil, ErrUnauthenticated()
		}
		k, a, err := s.store.FindActiveKeyByHash(ctx, HashKey(bearer))
		if ErrorCode(err) == CodeNotFound {
			return nil, ErrUnauthenticated()
		}
		if err != nil {
			return nil, err
		}
		return &Principal{Account: *a, Key: k}, nil
	}
	id, err := s.verifySession(ctx, bearer)
	if err != nil {
		return nil, err
	}
	a, err := s.EnsureAccount(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Principal{Account: *a}, nil
}
