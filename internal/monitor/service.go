// Package monitor watches public legal documents for accounts: monitors and
// their scheduler, checks, versions and their history, alerts and their
// feeds, and the politeness (a shared per-host schedule and robots.txt)
// every check goes through. It is built on the service layer (app) for the
// caller, the charge, errors and reading a document, and knows nothing of
// HTTP, GraphQL or SQL.
package monitor

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// Options configure monitoring. Past App and Store the zero value is
// usable: no scheduler workers, 1h minimum interval, 1s between requests
// to one host.
type Options struct {
	// App is the service monitoring is built on; Store holds monitors,
	// versions, alerts, feed tokens and the host schedule.
	App   *app.Service
	Store Store
	Now   func() time.Time // nil: time.Now; tests inject the service's clock
	// Workers is how many checks Run runs at once; 0 runs none.
	Workers int
	// MinInterval is the shortest interval a monitor may have (default 1h).
	MinInterval time.Duration
	// HostInterval is the least time between two requests to one host
	// from all processes on the database together (default 1s; negative:
	// no limit). A host's schedule grows past it (host.go).
	HostInterval time.Duration
	// Lease is how long a claimed check may take before another process may
	// claim the monitor again (default 35s). It must exceed the fetch
	// timeout: a check gives up well before its lease ends.
	Lease time.Duration
}

// Service is monitoring. Its methods read the caller from ctx
// (app.WithPrincipal) and return *app.Error values.
type Service struct {
	app   *app.Service
	store Store
	log   *slog.Logger
	clock func() time.Time
	opts  Options

	gate *politeness
	wake chan struct{} // a monitor was created: the scheduler looks again
	// pageReader is a check's read of its page (app's ReadDocument; a
	// benchmark of dispatch alone replaces it).
	pageReader func(context.Context, fetch.Request) (*app.Document, error)

	grades cache[string, string] // grades of versions (version.go)
}

// New builds monitoring on o.App. It starts nothing: a server passes Run to
// the app's Run, which restarts it after a panic.
func New(o Options) *Service {
	if o.MinInterval <= 0 {
		o.MinInterval = time.Hour
	}
	if o.HostInterval == 0 {
		o.HostInterval = time.Second
	}
	if o.Lease <= 0 {
		o.Lease = 35 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{app: o.App, store: o.Store, log: o.App.Logger(), clock: o.Now, opts: o,
		wake: make(chan struct{}, 1)}
	s.gate = &politeness{store: o.Store, log: s.log, fetcher: o.App.Fetcher(), now: s.now, floor: o.HostInterval}
	s.pageReader = o.App.ReadDocument
	return s
}

// Run does monitoring's background work until ctx ends: the scheduler's
// workers, and pruning the history past each plan's retention and the
// hosts no process asked for a week.
func (s *Service) Run(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.pruneLoop(ctx)
	}()
	err := s.RunMonitors(ctx)
	<-done
	return err
}

// pruneLoop prunes the monitor history and the host schedule (app.PruneLoop).
func (s *Service) pruneLoop(ctx context.Context) {
	app.PruneLoop(ctx, s.log,
		app.Prune{What: "monitor history", Prune: s.PruneMonitorHistory},
		app.Prune{What: "host schedule", Prune: s.pruneHosts})
}

func (s *Service) now() time.Time { return s.clock().UTC() }

// monitorNow is the service's clock at the precision both databases keep.
func (s *Service) monitorNow() time.Time { return s.now().Truncate(time.Millisecond) }

func newID() string { return uuid.NewString() }
