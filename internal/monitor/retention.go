package monitor

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

// historyRetention is how much of its monitors' history a plan keeps.
type historyRetention struct {
	versions   int           // versions kept per monitor, the current one included
	versionAge time.Duration // older versions (by last sighting) go, except the current one
	alertAge   time.Duration // older alerts go
}

// retentions is how much each plan keeps (a function: no table the
// process could change).
func retentions() map[app.Tier]historyRetention {
	return map[app.Tier]historyRetention{
		app.TierFree:     {versions: 10, versionAge: 90 * 24 * time.Hour, alertAge: 90 * 24 * time.Hour},
		app.TierBase:     {versions: 50, versionAge: 365 * 24 * time.Hour, alertAge: 365 * 24 * time.Hour},
		app.TierAdvanced: {versions: 200, versionAge: 730 * 24 * time.Hour, alertAge: 730 * 24 * time.Hour},
	}
}

// PruneMonitorHistory deletes the versions and alerts past each plan's
// retention and returns how many rows went. An account's plan at the time
// of the prune decides, so a downgrade shortens its history at the next.
func (s *Service) PruneMonitorHistory(ctx context.Context) (int64, error) {
	now := s.now()
	var total int64
	for tier, r := range retentions() {
		n, err := s.store.PruneMonitorHistory(ctx, tier, r.versions, now.Add(-r.versionAge), now.Add(-r.alertAge))
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}
