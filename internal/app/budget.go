package app

import "context"

// Budget is one window of a pool (interface.md 2.4): limit -1 is unlimited.
type Budget struct {
	Allowed   bool  `json:"allowed"`
	Remaining int   `json:"remaining"`
	Limit     int   `json:"limit"`
	ResetsAt  int64 `json:"resetsAt"`
	WindowEnd int64 `json:"windowEnd"`
}

// KeyStatus is a key's two budgets.
type KeyStatus struct {
	Scans Budget `json:"scans"`
	AI    Budget `json:"ai"`
}

// KeyLimit is one element of GET /api/developer/usage/per-key.
type KeyLimit struct {
	KeyID     string    `json:"keyId"`
	KeyPrefix string    `json:"keyPrefix"`
	Scopes    Scopes    `json:"scopes"`
	Status    KeyStatus `json:"status"`
}

// KeyLimits is the per-key rate-limit snapshot with the account's tier.
type KeyLimits struct {
	Keys []KeyLimit `json:"keys"`
	Tier Tier       `json:"tier"`
}

// KeyLimits returns every active key's budgets, for polling before a limit is hit.
func (s *Service) KeyLimits(ctx context.Context) (*KeyLimits, error) {
	if _, err := principalFrom(ctx); err != nil {
		return nil, err
	}
	return nil, Errorf(CodeNotImplemented, "budgets are not available yet")
}
