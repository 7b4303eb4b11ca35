package app

import (
	"context"
	"strings"
	"sync"
)

// Ask is what a route asks of its caller's admission, as the route table
// declares it (rest.Register): the operation whose scope it needs, the scans
// it charges, and whether it lists the account's keys. For an API key,
// Admit does all of it in the statement that finds the key.
type Ask struct {
	Op Operation // "" for an account route any credential may use
	// Scans is what one call of the route charges (a single analysis or
	// extraction: 1); a route charging more, or a number known only from
	// its body (a batch), leaves it 0 and is charged by its operation.
	Scans int
	// KeyList reads the account's keys (revoked ones too with
	// IncludeRevoked), as FindKeys will ask.
	KeyList, IncludeRevoked bool
}

// Admission is an admitted request: who calls, and what was charged or
// read with the authentication for the operation to take. Settle ends it.
type Admission struct {
	Principal *Principal

	mu      sync.Mutex
	charge  *Charge // scans taken with the authentication, until the operation takes them
	taken   bool
	keys    []Key
	keysRev bool // keys includes revoked ones
	hasKeys bool
}

// Authenticate resolves a bearer credential: an API key (cwsk_...) or an
// account-session token. Every failure is the same unauthenticated error.
func (s *Service) Authenticate(ctx context.Context, bearer string) (*Principal, error) {
	a, err := s.Admit(ctx, bearer, Ask{})
	if err != nil {
		return nil, err
	}
	return a.Principal, nil
}

// Admit authenticates bearer for a route and charges what the route asks,
// or refuses: unauthenticated (nil admission), or, for a caller it knows,
// the 403 of a key without the route's scope or the 429 of a key whose
// daily scans are spent, returned with the admission so that the refused
// request is still the caller's. Every answer comes from the database, so a
// key revoked on any replica is refused on the next request everywhere. A
// route asks before it reads its body: a refused request costs one
// statement and its answer, whatever it sends (interface.md 7). Settle
// must follow once the request is done.
func (s *Service) Admit(ctx context.Context, bearer string, ask Ask) (*Admission, error) {
	if !strings.HasPrefix(bearer, KeyPrefix) {
		p, err := s.sessionPrincipal(ctx, bearer)
		if err != nil {
			return nil, err
		}
		return &Admission{Principal: p}, nil // sessions hold every scope; their charge is the operation's
	}
	if !WellFormedKey(bearer) {
		return nil, ErrUnauthenticated()
	}
	day := dayWindow(s.now())
	a, out, err := s.findKey(ctx, HashKey(bearer), ask, day)
	if ErrorCode(err) == CodeNotFound {
		return nil, ErrUnauthenticated()
	}
	if err != nil {
		return nil, err
	}
	if err := missingScope(a.Principal, ScopeOf(ask.Op)); err != nil {
		return a, err
	}
	if out.Tried && !out.OK {
		return a, s.keyScansSpent(ctx, a.Principal, day, ask.Scans)
	}
	return a, nil
}

// findKey finds an API key by its hash with what ask needs in the same
// statement: the account's keys, or the route's scans taken from the key's
// daily pool within its plan's limit when the key holds the route's scope.
func (s *Service) findKey(ctx context.Context, hash []byte, ask Ask, day window) (*Admission, ChargeOutcome, error) {
	var (
		a   = &Admission{}
		k   *Key
		acc *Account
		out ChargeOutcome
		err error
	)
	switch {
	case ask.KeyList:
		k, acc, a.keys, err = s.store.FindActiveKeyWithKeys(ctx, hash, ask.IncludeRevoked)
		a.keysRev, a.hasKeys = ask.IncludeRevoked, err == nil
	case ask.Scans > 0:
		k, acc, out, err = s.store.FindActiveKeyAndCharge(ctx, hash, KeyCharge{
			Scope: ScopeOf(ask.Op), Kind: kindScan, Period: day.period, N: ask.Scans, Limits: planScans()})
		if err == nil && out.OK {
			lim := limitsOf(acc.Tier).scans
			a.charge = &Charge{owner: k.ID, accountID: acc.ID, scanPeriod: day.period, scans: ask.Scans,
				rate: s.rateLimit(lim, lim-out.Used, day.end), store: s.store}
		}
	default:
		k, acc, err = s.store.FindActiveKeyByHash(ctx, hash)
	}
	if err != nil {
		return nil, out, err
	}
	a.Principal = &Principal{Account: *acc, Key: k}
	return a, out, nil
}

// sessionPrincipal is the account of an account-session token.
func (s *Service) sessionPrincipal(ctx context.Context, token string) (*Principal, error) {
	id, err := s.verifySession(ctx, token)
	if err != nil {
		return nil, err
	}
	acct, err := s.EnsureAccount(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Principal{Account: *acct, Expires: id.Expires}, nil
}

// Settle ends an admitted request: scans charged with the authentication
// that the operation did not take (it failed before charging: a bad body)
// are given back.
func (s *Service) Settle(ctx context.Context, a *Admission) {
	if c := a.take(-1); c != nil {
		c.refund(ctx)
	}
}

// take hands the charge made with the authentication over once: to an
// operation charging n scans, or to Settle (n < 0).
func (a *Admission) take(n int) *Charge {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.taken || a.charge == nil || (n >= 0 && a.charge.scans != n) {
		return nil
	}
	a.taken = true
	return a.charge
}

// prefetchedKeys are the account's keys read with the authentication, when
// they were read with revoked ones as asked.
func (a *Admission) prefetchedKeys(includeRevoked bool) ([]Key, bool) {
	if a == nil || !a.hasKeys || a.keysRev != includeRevoked {
		return nil, false
	}
	return a.keys, true
}

type admissionKey struct{}

// WithAdmission returns ctx carrying an admitted request: its principal
// (as WithPrincipal) and what was charged or read with it.
func WithAdmission(ctx context.Context, a *Admission) context.Context {
	return context.WithValue(WithPrincipal(ctx, a.Principal), admissionKey{}, a)
}

func admissionFrom(ctx context.Context) *Admission {
	a, _ := ctx.Value(admissionKey{}).(*Admission)
	return a
}
