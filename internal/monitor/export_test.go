package monitor

import (
	"context"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

var CapDiff = capDiff

// DispatchOnly makes every check's read of its page answer 304 at once,
// asking no site: what is left of a check is the scheduler's own work
// (claim, record). Call it before RunMonitors.
func (s *Service) DispatchOnly() {
	s.pageReader = func(context.Context, fetch.Request) (*app.Document, error) {
		return &app.Document{Response: fetch.Response{NotModified: true}}, nil
	}
}

var HostKey, OriginOf = hostKey, originOf
