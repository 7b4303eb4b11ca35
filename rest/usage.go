package rest

import (
	"net/http"
	"strconv"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/view"
)

// usageResponse is the body of GET /api/developer/usage (interface.md 2.3).
type usageResponse struct {
	Stats usageStatsResponse `json:"stats"`
}

type usageStatsResponse struct {
	TotalRequests int64                   `json:"totalRequests"`
	SuccessCount  int64                   `json:"successCount"`
	ErrorCount    int64                   `json:"errorCount"`
	SuccessRate   float64                 `json:"successRate"`
	ErrorRate     float64                 `json:"errorRate"`
	DailyRequests []dailyRequestsResponse `json:"dailyRequests"`
	RecentErrors  []recentErrorResponse   `json:"recentErrors"`
}

type dailyRequestsResponse struct {
	Date  string `json:"date"`
	Count int64  `json:"count"`
}

type recentErrorResponse struct {
	At        view.Time `json:"at"`
	KeyPrefix string    `json:"keyPrefix"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Status    int       `json:"status"`
	Error     string    `json:"error"`
}

func newUsageResponse(st *app.UsageStats) usageResponse {
	return usageResponse{Stats: usageStatsResponse{
		TotalRequests: st.TotalRequests, SuccessCount: st.SuccessCount, ErrorCount: st.ErrorCount,
		SuccessRate: st.SuccessRate, ErrorRate: st.ErrorRate,
		DailyRequests: view.MapAll(st.DailyRequests, func(d app.DailyRequests) dailyRequestsResponse { return dailyRequestsResponse(d) }),
		RecentErrors: view.MapAll(st.RecentErrors, func(e app.RecentError) recentErrorResponse {
			return recentErrorResponse{At: view.Time(e.At), KeyPrefix: e.KeyPrefix, Method: e.Method, Path: e.Path, Status: e.Status, Error: e.Error}
		}),
	}}
}

// keyLimitsResponse is the body of GET /api/developer/usage/per-key (interface.md 2.4).
// Account, the account's own pool, is ours beside the contract's two fields.
type keyLimitsResponse struct {
	Keys    []keyLimitResponse  `json:"keys"`
	Tier    app.Tier            `json:"tier"`
	Account accountPoolResponse `json:"account"`
}

type accountPoolResponse struct {
	Scans   budgetResponse `json:"scans"`
	AI      budgetResponse `json:"ai"`
	Credits int            `json:"credits"`
}

type keyLimitResponse struct {
	KeyID     string            `json:"keyId"`
	KeyPrefix string            `json:"keyPrefix"`
	Scopes    []string          `json:"scopes"`
	Status    keyStatusResponse `json:"status"`
}

type keyStatusResponse struct {
	Scans budgetResponse `json:"scans"`
	AI    budgetResponse `json:"ai"`
}

type budgetResponse struct {
	Allowed   bool  `json:"allowed"`
	Remaining int   `json:"remaining"`
	Limit     int   `json:"limit"`
	ResetsAt  int64 `json:"resetsAt"`
	WindowEnd int64 `json:"windowEnd"`
}

func newKeyLimitsResponse(l *app.KeyLimits) keyLimitsResponse {
	account := accountPoolResponse{Scans: budgetResponse(l.Account.Scans), AI: budgetResponse(l.Account.AI), Credits: l.Account.Credits}
	return keyLimitsResponse{Tier: l.Tier, Account: account, Keys: view.MapAll(l.Keys, func(k app.KeyLimit) keyLimitResponse {
		return keyLimitResponse{KeyID: k.KeyID, KeyPrefix: k.KeyPrefix, Scopes: k.Scopes, Status: keyStatusResponse{
			Scans: budgetResponse(k.Status.Scans), AI: budgetResponse(k.Status.AI)}}
	})}
}

func (s *server) handleUsage(w http.ResponseWriter, r *http.Request) error {
	var days *int
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return app.InvalidDays()
		}
		days = &n
	}
	stats, err := s.svc.Usage(r.Context(), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newUsageResponse(stats))
}

func (s *server) handleUsagePerKey(w http.ResponseWriter, r *http.Request) error {
	limits, err := s.svc.KeyLimits(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newKeyLimitsResponse(limits))
}
