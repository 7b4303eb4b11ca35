package monitor

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Store is the persistence monitoring needs; db.Store implements it for
// PostgreSQL and SQLite, with the conventions of app.Store (a missing row is
// CodeNotFound, a unique violation CodeConflict; none returns nil, nil).
type Store interface {
	monitorStore
	hostStore
	feedStore
}

// Monitor and alert persistence. The scheduler's claim is a lease: a
// monitor claimed by one process (LeaseOwner) is not claimed again until its
// lease ends, and a check is recorded only by the lease's owner.
type monitorStore interface {
	// CountMonitors counts an account's active (undeleted) monitors.
	CountMonitors(ctx context.Context, accountID string) (int, error)
	// CreateMonitor stores a monitor and its first version if the account
	// has fewer than limit active monitors; ok is false, and nothing is
	// stored, when it has not.
	CreateMonitor(ctx context.Context, m *Monitor, v *MonitorVersion, raw *RawPage, limit int) (ok bool, err error)
	FindMonitors(ctx context.Context, accountID string) ([]Monitor, error)
	FindMonitor(ctx context.Context, accountID, id string) (*Monitor, error)
	// UpdateMonitor sets an active monitor's alertOn and returns it;
	// CodeNotFound for an unknown, foreign or deleted monitor.
	UpdateMonitor(ctx context.Context, accountID, id, alertOn string) (*Monitor, error)
	// DeleteMonitor is CodeNotFound for an unknown, foreign or deleted monitor.
	DeleteMonitor(ctx context.Context, accountID, id string, at time.Time) error

	// ClaimDueMonitor leases one due, unleased monitor to owner until until;
	// no two claims (in any process) return one monitor while its lease
	// holds. Of the earliest due it takes one of the account with the
	// fewest checks in flight (leases held, in every process), the earliest
	// due of those. CodeNotFound when none is due.
	ClaimDueMonitor(ctx context.Context, now, until time.Time, owner string) (*Monitor, error)
	// ClaimMonitor leases one of an account's monitors now: CodeNotFound when
	// it is unknown or foreign, CodeConflict while another check holds it.
	ClaimMonitor(ctx context.Context, accountID, id string, now, until time.Time, owner string) (*Monitor, error)
	// NextCheckAt is the earliest next check of an unleased monitor;
	// CodeNotFound when there is none.
	NextCheckAt(ctx context.Context, now time.Time) (time.Time, error)
	// ReleaseMonitor gives a lease back unchecked, to be claimed from next on.
	ReleaseMonitor(ctx context.Context, id, owner string, next time.Time) error
	// FindVersion returns a monitor's version with its text.
	FindVersion(ctx context.Context, monitorID, contentHash string) (*MonitorVersion, error)
	// FindRawPage returns the raw page of a monitor's latest version.
	FindRawPage(ctx context.Context, monitorID string) (*RawPage, error)
	// FinishCheck records a check made under owner's lease: the monitor's
	// state, the version seen, the new raw page and the alert, at once. ok is
	// false, and nothing is recorded, when the lease was lost (expired and
	// claimed again, or the monitor deleted).
	FinishCheck(ctx context.Context, c *CheckRecord) (ok bool, err error)
	// FindVersions pages through a monitor's versions (no texts), newest first.
	FindVersions(ctx context.Context, monitorID string, after *app.PageCursor, limit int) ([]MonitorVersion, error)

	// PruneMonitorHistory applies a plan's retention to the monitors of the
	// accounts on tier: of each monitor's versions it keeps the current one
	// and the newest keepVersions-1 others last seen from versionsBefore on
	// (none of a deleted monitor), and it keeps the alerts detected from
	// alertsBefore on. It returns how many rows it deleted.
	PruneMonitorHistory(ctx context.Context, tier app.Tier, keepVersions int, versionsBefore, alertsBefore time.Time) (int64, error)

	FindAlerts(ctx context.Context, f AlertQuery) ([]Alert, error)
	// UpdateAlerts sets read on those of ids the account owns; it returns
	// how many it changed.
	UpdateAlerts(ctx context.Context, accountID string, ids []string, read bool) (int, error)
}

// RawPage is a fetched page as it came, kept for re-extraction.
type RawPage struct {
	Body        []byte
	ContentType string
	URL         string // the final URL, which resolves the page's links
}

// CheckRecord is the outcome of one check, recorded by FinishCheck.
type CheckRecord struct {
	MonitorID, LeaseOwner  string
	CheckedAt, NextCheckAt time.Time
	// Error is why the check failed ("" when it succeeded); Failures is the
	// monitor's count of failures in a row after this check.
	Error    string
	Failures int
	// ErrorCode says why in one word (Monitor.LastErrorCode); BlockedBy
	// names the bot protection when it is blocked.
	ErrorCode, BlockedBy string
	// On success: the validators for the next conditional GET, the version
	// seen (nil: unchanged, the current version was seen again), the raw page
	// to keep (nil: keep the stored one) and the alert (nil: no change).
	ETag, LastModified string
	Version            *MonitorVersion
	Raw                *RawPage
	Alert              *Alert
	// Changes is the monitor's count of successful checks in a row that
	// saw the text change, after this one.
	Changes int
	// Whole says the page was fetched whole (not answered 304): the
	// monitor's WholeFetchAt becomes CheckedAt.
	Whole bool
}

// AlertQuery selects a page of an account's alerts, newest first.
type AlertQuery struct {
	AccountID  string
	UnreadOnly bool
	MonitorID  string // "": every monitor
	After      *app.PageCursor
	Limit      int
	// WithoutDiff leaves Diff empty: the diff, the largest part of an
	// alert, is then neither read nor decompressed.
	WithoutDiff bool
}
