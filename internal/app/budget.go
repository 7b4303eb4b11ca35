package app

import (
	"context"
	"math"
	"sync"
	"time"
)

// Plan limits (interface.md 8): per key, and the same for an account's own
// (portal) pool. Unlimited is -1.
// Monitors and keys are active ones per account.
type planLimits struct{ scans, ai, monitors, keys int }

var plans = map[Tier]planLimits{
	TierFree:     {scans: 5, ai: 5, monitors: 3, keys: 3},
	TierBase:     {scans: 25, ai: 30, monitors: 25, keys: 10},
	TierAdvanced: {scans: 100, ai: -1, monitors: 200, keys: 50},
}

func limitsOf(t Tier) planLimits {
	if l, ok := plans[t]; ok {
		return l
	}
	return plans[TierFree]
}

// Budget kinds as stored.
const (
	kindScan = "scan"
	kindAI   = "ai"
)

// Budget is one window of a pool (interface.md 2.4): limit -1 is unlimited.
type Budget struct {
	Allowed   bool
	Remaining int
	Limit     int
	ResetsAt  int64
	WindowEnd int64
}

// KeyStatus is a key's two budgets.
type KeyStatus struct {
	Scans Budget
	AI    Budget
}

// KeyLimit is one element of GET /api/developer/usage/per-key.
type KeyLimit struct {
	KeyID     string
	KeyPrefix string
	Scopes    Scopes
	Status    KeyStatus
}

// KeyLimits is the per-key rate-limit snapshot with the account's tier, and
// the account's own pool beside the keys'.
type KeyLimits struct {
	Keys    []KeyLimit
	Tier    Tier
	Account AccountPool
}

// AccountPool is the account's own pool (interface.md 8, "the owning user's
// browser pool"): what the portal, and GraphQL or /api called with an
// account session, draw on; the keys never do. Credits are purchased scans,
// taken once the day's scans are spent.
type AccountPool struct {
	Scans   Budget
	AI      Budget
	Credits int
}

// RateLimit is the state of the pool a request drew on, for the
// RateLimit-* response headers. ResetSeconds is measured on the service's
// clock, so headers and bodies agree.
type RateLimit struct {
	Limit        int
	Remaining    int
	ResetSeconds int64
}

func (s *Service) rateLimit(limit, remaining int, end time.Time) RateLimit {
	secs := int64(math.Ceil(end.Sub(s.now()).Seconds()))
	return RateLimit{Limit: limit, Remaining: max(remaining, 0), ResetSeconds: max(secs, 0)}
}

type rateObserverKey struct{}

// WithRateLimitObserver lets a transport learn the budget state of the
// request (to set headers) before it writes its response.
func WithRateLimitObserver(ctx context.Context, f func(RateLimit)) context.Context {
	return context.WithValue(ctx, rateObserverKey{}, f)
}

func observeRate(ctx context.Context, rl RateLimit) {
	if f, ok := ctx.Value(rateObserverKey{}).(func(RateLimit)); ok {
		f(rl)
	}
}

// window is a budget period: its stored name and its end.
type window struct {
	period string
	end    time.Time
}

func dayWindow(now time.Time) window {
	d := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	return window{period: d.Format(time.DateOnly), end: d.AddDate(0, 0, 1)}
}

func monthWindow(now time.Time) window {
	m := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	return window{period: m.Format("2006-01"), end: m.AddDate(0, 1, 0)}
}

func budgetOf(limit, used int, w window) Budget {
	b := Budget{Limit: limit, Remaining: max(limit-used, 0), ResetsAt: w.end.UnixMilli(), WindowEnd: w.end.UnixMilli()}
	if limit < 0 {
		b.Remaining = -1
	}
	b.Allowed = limit < 0 || b.Remaining > 0
	return b
}

// planScans is each plan's daily scans, as the store charges a key's pool
// within its account's plan (KeyCharge.Limits).
func planScans() map[Tier]int {
	out := make(map[Tier]int, len(plans))
	for t, l := range plans {
		out[t] = l.scans
	}
	return out
}

// Charge is what one operation took from the caller's pools; refund gives
// it back when the operation fails.
type Charge struct {
	mu         sync.Mutex // batch items refund concurrently
	rate       RateLimit  // the scan pool as last reported, kept current by refunds
	owner      string
	scanPeriod string
	aiPeriod   string
	scans, ai  int
	credits    int // scans taken from the account's credits (portal only)
	accountID  string
	store      Store
}

// chargeScans takes scans (and ai units) from the caller's pools at once:
// the key's pools for an API key, the account's own pool then its credits
// for an account session. It is one conditional update per pool, exact under
// any concurrency; nothing is taken when any part is refused. Scans the
// request's admission took already (Admit) are taken over, not charged
// twice.
func (s *Service) chargeScans(ctx context.Context, scans, ai int) (*Charge, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	// The principal's account was read by this request's authentication, so
	// after an upgrade the very next call uses the new tier.
	lim := limitsOf(p.Account.Tier)
	now := s.now()
	c := &Charge{owner: p.Account.ID, scanPeriod: dayWindow(now).period, aiPeriod: monthWindow(now).period, accountID: p.Account.ID, store: s.store}
	if p.Key != nil {
		c.owner = p.Key.ID
	}
	if a := admissionFrom(ctx); scans > 0 && a != nil && a.Principal == p {
		if held := a.take(scans); held != nil {
			held.aiPeriod = c.aiPeriod
			c, scans = held, 0
			observeRate(ctx, c.rate)
		}
	}
	if scans > 0 {
		if err := s.takeScans(ctx, p, c, scans, lim.scans, dayWindow(now)); err != nil {
			return nil, err
		}
	}
	if ai > 0 {
		if err := s.takeAI(ctx, p, c, ai, lim.ai, monthWindow(now)); err != nil {
			c.refund(ctx)
			return nil, err
		}
	}
	return c, nil
}

// takeScans adds scans to c from p's daily pool, or for an account session
// past its pool from the account's credits.
func (s *Service) takeScans(ctx context.Context, p *Principal, c *Charge, scans, limit int, day window) error {
	used, ok, err := s.store.ConsumeBudget(ctx, c.owner, kindScan, day.period, scans, limit)
	switch {
	case err != nil:
		return err
	case ok:
		c.scans = scans
		c.rate = s.rateLimit(limit, limit-used, day.end)
		observeRate(ctx, c.rate)
		return nil
	case p.Key != nil:
		return s.keyScansSpent(ctx, p, day, scans)
	}
	// The portal pool is spent: the account's purchased credits take over.
	if ok, err := s.store.ConsumeCredits(ctx, p.Account.ID, scans); err != nil {
		return err
	} else if !ok {
		return s.scanLimitError(ctx, "Daily scan limit reached for this account", p.Account.Tier, false, c.owner, day, scans, limit)
	}
	c.credits = scans
	observeRate(ctx, s.rateLimit(limit, 0, day.end)) // the daily pool is spent; credits paid
	return nil
}

// takeAI adds ai units to c from p's monthly AI pool.
func (s *Service) takeAI(ctx context.Context, p *Principal, c *Charge, ai, limit int, month window) error {
	if _, ok, err := s.store.ConsumeBudget(ctx, c.owner, kindAI, month.period, ai, limit); err != nil {
		return err
	} else if ok {
		c.ai = ai
		return nil
	}
	observeRate(ctx, s.rateLimit(limit, 0, month.end))
	msg := "Monthly AI limit reached for this API key"
	if p.Key == nil {
		msg = "Monthly AI limit reached for this account"
	}
	used := limit
	if ai > 1 {
		if u, err := s.store.BudgetUsed(ctx, []string{c.owner}, kindAI, month.period); err == nil {
			used = u[c.owner]
		}
	}
	return &Error{Code: CodeRateLimited, Message: msg, Data: limitData(map[string]any{
		"aiRemaining": 0, "aiLimit": limit, "aiResetsAt": month.end.UnixMilli(),
	}, limit, used, month.end, aiHint(p.Account.Tier, limit, used, s.now(), month.end))}
}

// keyScansSpent is the 429 of an API key whose daily scans are spent.
func (s *Service) keyScansSpent(ctx context.Context, p *Principal, day window, scans int) error {
	return s.scanLimitError(ctx, "Daily scan limit reached for this API key", p.Account.Tier, true, p.Key.ID, day, scans, limitsOf(p.Account.Tier).scans)
}

// scanLimitError is the contract's 429 body with the true remainder: a
// refused single scan leaves none, but a batch refused whole may leave some.
func (s *Service) scanLimitError(ctx context.Context, msg string, tier Tier, key bool, owner string, day window, scans, limit int) error {
	left := 0
	if scans > 1 {
		used, err := s.store.BudgetUsed(ctx, []string{owner}, kindScan, day.period)
		if err != nil {
			return err
		}
		left = max(limit-used[owner], 0)
	}
	observeRate(ctx, s.rateLimit(limit, left, day.end))
	used := limit - left
	return &Error{Code: CodeRateLimited, Message: msg, Data: limitData(map[string]any{
		"scansRemaining": left, "scansLimit": limit, "scansResetsAt": day.end.UnixMilli(),
	}, limit, used, day.end, scanHint(tier, key, limit, used, scans, s.now(), day.end))}
}

// refund gives back everything still held. A refund the database refuses is
// dropped: it costs the customer that one scan, never more.
func (c *Charge) refund(ctx context.Context) {
	c.refundPart(ctx, c.scans+c.credits, c.ai)
}

// refundPart gives back scans (credits first) and ai units.
func (c *Charge) refundPart(ctx context.Context, scans, ai int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx = context.WithoutCancel(ctx) // a cancelled request still gets its scan back
	if n := min(scans, c.credits); n > 0 {
		if c.store.AddCredits(ctx, c.accountID, n) == nil {
			c.credits -= n
			scans -= n
		}
	}
	if n := min(scans, c.scans); n > 0 {
		if c.store.RefundBudget(ctx, c.owner, kindScan, c.scanPeriod, n) == nil {
			c.scans -= n
			c.rate.Remaining += n
			observeRate(ctx, c.rate)
		}
	}
	if n := min(ai, c.ai); n > 0 {
		if c.store.RefundBudget(ctx, c.owner, kindAI, c.aiPeriod, n) == nil {
			c.ai -= n
		}
	}
}

// KeyLimits returns every active key's budgets and the account's own pool,
// for polling before a limit is hit.
func (s *Service) KeyLimits(ctx context.Context) (*KeyLimits, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	acct := &p.Account // read by this request's authentication, as chargeScans uses it
	keys, err := s.store.FindKeys(ctx, KeyFilter{AccountID: acct.ID})
	if err != nil {
		return nil, err
	}
	// The account's own pool is one more owner in the same two reads.
	ids := make([]string, len(keys), len(keys)+1)
	for i, k := range keys {
		ids[i] = k.ID
	}
	ids = append(ids, acct.ID)
	now := s.now()
	day, month := dayWindow(now), monthWindow(now)
	scans, err := s.store.BudgetUsed(ctx, ids, kindScan, day.period)
	if err != nil {
		return nil, err
	}
	ai, err := s.store.BudgetUsed(ctx, ids, kindAI, month.period)
	if err != nil {
		return nil, err
	}
	lim := limitsOf(acct.Tier)
	out := &KeyLimits{Tier: acct.Tier, Keys: make([]KeyLimit, len(keys)), Account: AccountPool{
		Scans:   budgetOf(lim.scans, scans[acct.ID], day),
		AI:      budgetOf(lim.ai, ai[acct.ID], month),
		Credits: acct.Credits,
	}}
	for i, k := range keys {
		out.Keys[i] = KeyLimit{KeyID: k.ID, KeyPrefix: k.Prefix, Scopes: k.Scopes, Status: KeyStatus{
			Scans: budgetOf(lim.scans, scans[k.ID], day),
			AI:    budgetOf(lim.ai, ai[k.ID], month),
		}}
	}
	return out, nil
}
