package app

import (
	"context"
	"strings"
	"sync"
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

	// What an API key's authentication read or took for the route, in the
	// same statement (see Prefetch).
	keys    []Key
	keysRev bool // keys includes revoked ones
	hasKeys bool
	pre     *preCharge
}

// Prefetch is what a route will ask of the store right after the caller is
// authenticated, so that an API key's authentication does it in the same
// statement: one round trip where two were.
type Prefetch struct {
	// KeyList reads the account's keys (revoked ones too with
	// IncludeRevoked), as FindKeys will ask.
	KeyList        bool
	IncludeRevoked bool
	// Scans charges this many scans to the key's daily pool when the key
	// holds Scope; the route's chargeScans then takes this charge instead
	// of making its own, and an untaken one is refunded by Settle.
	Scans int
	Scope string
}

// preCharge is a scan charge tried with the authentication.
type preCharge struct {
	mu     sync.Mutex
	taken  bool
	scans  int
	day    window
	result ChargeOutcome
}

// take hands the charge to chargeScans once, when it is of n scans.
func (p *Principal) take(n int) (*preCharge, bool) {
	if p == nil || p.pre == nil || p.Key == nil {
		return nil, false
	}
	p.pre.mu.Lock()
	defer p.pre.mu.Unlock()
	if p.pre.taken || p.pre.scans != n || !p.pre.result.Tried {
		return nil, false
	}
	p.pre.taken = true
	return p.pre, true
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
	return s.AuthenticateFor(ctx, bearer, Prefetch{})
}

// AuthenticateFor is Authenticate that, for an API key, also reads or takes
// what the route will need (pf) in the same statement. Every answer comes
// from the database, so a key revoked on any replica is refused on the
// next request everywhere. Settle must follow once the request is done.
func (s *Service) AuthenticateFor(ctx context.Context, bearer string, pf Prefetch) (*Principal, error) {
	if strings.HasPrefix(bearer, KeyPrefix) {
		if !WellFormedKey(bearer) {
			return nil, ErrUnauthenticated()
		}
		var (
			p   = &Principal{}
			k   *Key
			a   *Account
			err error
		)
		hash := HashKey(bearer)
		switch {
		case pf.KeyList:
			k, a, p.keys, err = s.store.FindActiveKeyWithKeys(ctx, hash, pf.IncludeRevoked)
			p.keysRev, p.hasKeys = pf.IncludeRevoked, err == nil
		case pf.Scans > 0:
			day := dayWindow(s.now())
			limits := make(map[Tier]int, len(plans))
			for t, l := range plans {
				limits[t] = l.scans
			}
			var out ChargeOutcome
			k, a, out, err = s.store.FindActiveKeyAndCharge(ctx, hash, KeyCharge{Scope: pf.Scope, Kind: kindScan, Period: day.period, N: pf.Scans, Limits: limits})
			p.pre = &preCharge{scans: pf.Scans, day: day, result: out}
		default:
			k, a, err = s.store.FindActiveKeyByHash(ctx, hash)
		}
		if ErrorCode(err) == CodeNotFound {
			return nil, ErrUnauthenticated()
		}
		if err != nil {
			return nil, err
		}
		p.Account, p.Key = *a, k
		return p, nil
	}
	id, err := s.verifySession(ctx, bearer)
	if err != nil {
		return nil, err
	}
	a, err := s.EnsureAccount(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Principal{Account: *a, Expires: id.Expires}, nil
}

// Settle ends an authenticated request: a scan charged with the
// authentication that the route did not take (it failed before charging:
// a missing scope, a bad body) is given back.
func (s *Service) Settle(ctx context.Context, p *Principal) {
	if p == nil || p.pre == nil || p.Key == nil {
		return
	}
	p.pre.mu.Lock()
	defer p.pre.mu.Unlock()
	if p.pre.taken || !p.pre.result.OK {
		return
	}
	p.pre.taken = true
	ctx = context.WithoutCancel(ctx) // a cancelled request still gets its scan back
	if err := s.store.RefundBudget(ctx, p.Key.ID, kindScan, p.pre.day.period, p.pre.scans); err != nil {
		s.log.Warn("refund of an untaken scan failed", "key_id", p.Key.ID, "err", err)
	}
}
