package monitor

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// Monitor statuses: active, or failing while its checks fail in a row.
const (
	MonitorActive  = "active"
	MonitorFailing = "failing"
)

// Monitor watches one public legal document for an account.
type Monitor struct {
	ID              string
	AccountID       string
	URL             string
	Name            string
	IntervalSeconds int
	CreatedAt       time.Time
	NextCheckAt     time.Time
	LastCheckedAt   *time.Time
	LastChangedAt   *time.Time
	LastError       string
	// LastErrorCode says why the latest check failed in one word (README,
	// "Failure codes"); BlockedBy names the bot protection that refused it
	// when the code is blocked. Both are "" while checks succeed.
	LastErrorCode       string
	BlockedBy           string
	ConsecutiveFailures int
	// ConsecutiveChanges counts the successful checks in a row that saw
	// the text change.
	ConsecutiveChanges int
	// AlertOn is AlertOnAny or AlertOnRisk (see Wants).
	AlertOn string
	// The check's state: the current version and the validators of the
	// next conditional GET.
	ContentHash  string
	ETag         string
	LastModified string
	// WholeFetchAt is when the page was last fetched whole (answered other
	// than 304); nil before this was recorded. A check sends no validators
	// once it is a day old (wholeFetchEvery).
	WholeFetchAt *time.Time
}

// Status is active, or failing while the latest checks failed.
func (m *Monitor) Status() string {
	if m.ConsecutiveFailures > 0 {
		return MonitorFailing
	}
	return MonitorActive
}

// Interval is the monitor's interval as a duration.
func (m *Monitor) Interval() time.Duration { return time.Duration(m.IntervalSeconds) * time.Second }

// MonitorVersion is one distinct extracted text of a monitor.
type MonitorVersion struct {
	MonitorID        string
	ContentHash      string
	ExtractorVersion string
	WordCount        int
	FirstSeenAt      time.Time
	LastSeenAt       time.Time
	Text             string // read by FindVersion only
	// Grade is the text's grade; set by FindVersionHistory and
	// DiffMonitorVersions, "" where it was not asked for or the text is
	// not a legal document (analyze.Result.Graded).
	Grade string
}

// Alert says what changed in a monitored document.
type Alert struct {
	ID         string
	AccountID  string
	MonitorID  string
	URL        string
	DetectedAt time.Time
	Read       bool
	Summary    string
	Diff       string // unified diff of the extracted text, one paragraph a line
	Added      int    // lines added
	Removed    int    // lines removed
	// The analysis findings present in the new text and not the old, and
	// the reverse: each list most severe first, at most MaxAlertFindings,
	// with the count of those left out.
	FindingsAdded          []AlertFinding
	FindingsRemoved        []AlertFinding
	FindingsAddedOmitted   int
	FindingsRemovedOmitted int
	// How the grade moved: the old text's and the new text's, and the
	// ToS;DR cases found in the new text and not the old, and the reverse.
	// Grades are "" on alerts stored before alerts had them, and for a
	// text that is not a legal document.
	GradeBefore, GradeAfter  string
	CasesAdded, CasesRemoved []app.Case
}

// AlertFinding is a finding as an alert reports it.
type AlertFinding struct {
	Category string
	Severity string
	Title    string
	Quote    string
}

// Interval bounds: the least is configured (Options.MinInterval).
const (
	defaultInterval = 86400 * time.Second
	maxInterval     = 30 * 24 * time.Hour
)

// MonitorCreate is the body of POST /api/monitor.
type MonitorCreate struct {
	URL             string  `json:"url" validate:"required,max=2048"`
	Name            string  `json:"name" validate:"max=200"`
	IntervalSeconds *int    `json:"intervalSeconds"` // default 86400 (or the minimum, if higher)
	AlertOn         *string `json:"alertOn"`         // any (default) or risk
}

// CreateMonitor starts watching a public URL. It needs the monitor scope and
// one scan, and fetches the document at once to set the baseline: when that
// fails, the answer is the fetch's error, the scan is given back (unless
// the work was done: WorkDone) and no monitor exists. Over the plan's cap,
// or on a page the site's robots.txt disallows (read first), it is refused
// with nothing consumed.
func (s *Service) CreateMonitor(ctx context.Context, in MonitorCreate) (*Monitor, error) {
	p, err := app.Authorize(ctx, app.OpMonitor)
	if err != nil {
		return nil, err
	}
	in.URL, in.Name = strings.TrimSpace(in.URL), strings.TrimSpace(in.Name)
	if err := s.app.Validate(in); err != nil {
		return nil, err
	}
	interval, err := s.interval(in.IntervalSeconds)
	if err != nil {
		return nil, err
	}
	on, err := alertOn(in.AlertOn)
	if err != nil {
		return nil, err
	}
	if err := s.app.Fetcher().Check(in.URL); err != nil {
		return nil, app.FetchError(err)
	}
	// A downgrade keeps the monitors running; only new ones are refused.
	limit := app.MonitorLimit(p.Account.Tier)
	if n, err := s.store.CountMonitors(ctx, p.Account.ID); err != nil {
		return nil, err
	} else if n >= limit {
		return nil, app.MonitorLimitError(p.Account.Tier, limit, n)
	}
	// robots.txt before the first request to the page: a disallowed page
	// is refused having asked it nothing and charged nothing.
	if err := s.gate.allowed(ctx, in.URL); err != nil {
		return nil, err
	}
	refund, err := s.app.ChargeScan(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := s.app.ReadDocument(ctx, fetch.Request{URL: in.URL})
	if err != nil {
		if !app.WorkDone(err) {
			refund(ctx)
		}
		return nil, err
	}
	now := s.monitorNow()
	m := &Monitor{ID: newID(), AccountID: p.Account.ID, URL: in.URL, Name: in.Name,
		IntervalSeconds: int(interval / time.Second), AlertOn: on, CreatedAt: now, LastCheckedAt: &now,
		// Jitter spreads monitors created together over a tenth of their interval.
		NextCheckAt: now.Add(interval + rand.N(interval/10+time.Millisecond)).Truncate(time.Millisecond),
		ContentHash: pg.Extracted.ContentHash, ETag: pg.ETag, LastModified: pg.LastModified, WholeFetchAt: &now}
	ok, err := s.store.CreateMonitor(ctx, m, s.newVersion(m.ID, pg.Extracted, now), rawPage(pg), limit)
	if err != nil || !ok {
		refund(ctx)
		if err == nil {
			err = app.MonitorLimitError(p.Account.Tier, limit, limit) // a concurrent creation took the last place
		}
		return nil, err
	}
	s.wakeScheduler()
	return m, nil
}

func (s *Service) interval(secs *int) (time.Duration, error) {
	if secs == nil {
		return max(defaultInterval, s.opts.MinInterval), nil
	}
	// Compared in seconds: a count of seconds past 9.2e9 wraps around once
	// multiplied into nanoseconds (18446744079 s would become 5 s).
	lo, hi := int64(s.opts.MinInterval/time.Second), int64(maxInterval/time.Second)
	if n := int64(*secs); n < lo || n > hi || time.Duration(n)*time.Second < s.opts.MinInterval {
		msg := fmt.Sprintf("must be from %d to %d", lo, hi)
		return 0, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "intervalSeconds", Message: msg}}}
	}
	return time.Duration(*secs) * time.Second, nil
}

// FindMonitors lists the caller's monitors, newest first.
func (s *Service) FindMonitors(ctx context.Context) ([]Monitor, error) {
	p, err := app.Authorize(ctx, app.OpMonitor)
	if err != nil {
		return nil, err
	}
	return s.store.FindMonitors(ctx, p.Account.ID)
}

// FindMonitor returns one of the caller's monitors.
func (s *Service) FindMonitor(ctx context.Context, id string) (*Monitor, error) {
	p, err := monitorCaller(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.store.FindMonitor(ctx, p.Account.ID, id)
}

// monitorCaller is the caller of an operation on the monitor id: it needs
// the monitor scope and an id (a missing one is invalid), and an id that is
// no UUID names no monitor.
func monitorCaller(ctx context.Context, id string) (*app.Principal, error) {
	p, err := app.Authorize(ctx, app.OpMonitor)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "id", Message: "is required"}}}
	}
	if !app.ValidID(id) {
		return nil, app.Errorf(app.CodeNotFound, "monitor not found")
	}
	return p, nil
}

// MonitorUpdate is the body of PATCH /api/monitor: what to change of a
// monitor. alertOn is the only field a monitor lets change, so it is
// required: an update that changes nothing is a client's mistake.
type MonitorUpdate struct {
	AlertOn *string `json:"alertOn" validate:"required"` // any or risk
}

// UpdateMonitor changes one of the caller's monitors and returns it. It
// consumes nothing and fetches nothing; the change applies from the next
// check (one under way finishes with what it started with). Another
// account's monitor and an unknown id are both not_found.
func (s *Service) UpdateMonitor(ctx context.Context, id string, in MonitorUpdate) (*Monitor, error) {
	p, err := monitorCaller(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.app.Validate(in); err != nil {
		return nil, err
	}
	on, err := alertOn(in.AlertOn)
	if err != nil {
		return nil, err
	}
	return s.store.UpdateMonitor(ctx, p.Account.ID, id, on)
}

// DeleteMonitor stops one of the caller's monitors; its alerts stay
// readable. Another account's monitor and an unknown id are both not_found.
func (s *Service) DeleteMonitor(ctx context.Context, id string) error {
	p, err := monitorCaller(ctx, id)
	if err != nil {
		return err
	}
	return s.store.DeleteMonitor(ctx, p.Account.ID, id, s.now())
}

// CheckMonitor checks one of the caller's monitors now and returns it. It
// takes one scan, given back when the check fails (the failure is then the
// monitor's lastError) unless the work was done (WorkDone), or when it
// records nothing (a panic past the check itself, the monitor deleted
// meanwhile). A monitor being checked already is a
// conflict; a check that cannot be made now for a reason not the page's
// (the server busy with analyses, the site asked too often just now) is
// that error, and records nothing.
func (s *Service) CheckMonitor(ctx context.Context, id string) (*Monitor, error) {
	p, err := monitorCaller(ctx, id)
	if err != nil {
		return nil, err
	}
	owner, now := newID(), s.monitorNow()
	m, err := s.store.ClaimMonitor(ctx, p.Account.ID, id, now, now.Add(s.opts.Lease), owner)
	if err != nil {
		return nil, err
	}
	refund, err := s.app.ChargeScan(ctx)
	if err != nil {
		s.release(m, owner, m.NextCheckAt)
		return nil, err
	}
	o := s.runCheck(ctx, m, owner)
	if o.Result != CheckUnchanged && o.Result != CheckChanged && !app.WorkDone(o.Err) {
		refund(ctx)
	}
	switch {
	case o.Result == CheckRetry:
		return nil, o.Err
	case o.Result == CheckLost && !errors.Is(o.Err, errNotRecorded):
		return nil, o.Err
	}
	// Nothing recorded: the monitor as it stands, not_found once deleted.
	return s.store.FindMonitor(ctx, p.Account.ID, id)
}

// VersionPage is one page of a monitor's versions, newest first.
type VersionPage struct {
	Versions   []MonitorVersion
	NextCursor *string
}

// VersionFilter selects a page of one monitor's versions. Every list input
// has this shape (app.AnalysisFilter, AlertFilter): what to select, then
// Limit and Cursor.
type VersionFilter struct {
	MonitorID string
	Limit     *int   // 1 to 100; 20 when nil
	Cursor    string // a previous page's NextCursor; "" for the first page
}

// FindMonitorVersions pages through the distinct texts one of the caller's
// monitors has seen.
func (s *Service) FindMonitorVersions(ctx context.Context, f VersionFilter) (*VersionPage, error) {
	m, err := s.FindMonitor(ctx, f.MonitorID)
	if err != nil {
		return nil, err
	}
	n, after, err := app.PageArgs(f.Limit, f.Cursor, isContentHash)
	if err != nil {
		return nil, err
	}
	list, err := s.store.FindVersions(ctx, m.ID, after, n+1)
	if err != nil {
		return nil, err
	}
	page := &VersionPage{}
	page.Versions, page.NextCursor = app.TrimPage(list, n, func(v MonitorVersion) (time.Time, string) { return v.FirstSeenAt, v.ContentHash })
	return page, nil
}

func isContentHash(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

// AlertFilter selects a page of the caller's alerts.
type AlertFilter struct {
	Unread    bool
	MonitorID string // "": every monitor
	Limit     *int   // 1 to 100; 20 when nil
	Cursor    string // a previous page's NextCursor; "" for the first page
	// WithoutDiff is for a caller that shows no diff (MCP, feeds, a
	// GraphQL selection without it): Diff stays empty and is not read.
	WithoutDiff bool
}

// AlertPage is one page of alerts, newest first; NextCursor is nil on the last.
type AlertPage struct {
	Alerts     []Alert
	NextCursor *string
}

// FindAlerts pages through the caller's alerts, newest first. Alerts of
// deleted monitors stay readable.
func (s *Service) FindAlerts(ctx context.Context, f AlertFilter) (*AlertPage, error) {
	p, err := app.Authorize(ctx, app.OpMonitor)
	if err != nil {
		return nil, err
	}
	if f.MonitorID != "" && !app.ValidID(f.MonitorID) {
		return nil, &app.Error{Code: app.CodeInvalid, Message: "invalid monitorId", Fields: []app.FieldError{{Field: "monitorId", Message: "must be a monitor's id (UUID)"}}}
	}
	n, after, err := app.PageArgs(f.Limit, f.Cursor, app.ValidID)
	if err != nil {
		return nil, err
	}
	list, err := s.store.FindAlerts(ctx, AlertQuery{AccountID: p.Account.ID, UnreadOnly: f.Unread, MonitorID: f.MonitorID, After: after, Limit: n + 1, WithoutDiff: f.WithoutDiff})
	if err != nil {
		return nil, err
	}
	page := &AlertPage{}
	page.Alerts, page.NextCursor = app.TrimPage(list, n, func(a Alert) (time.Time, string) { return a.DetectedAt, a.ID })
	return page, nil
}

// AlertUpdate is the body of PATCH /api/monitor/alerts.
type AlertUpdate struct {
	IDs  []string `json:"ids"`
	Read *bool    `json:"read" validate:"required"`
}

// MaxAlertUpdate is the most ids one update may name.
const MaxAlertUpdate = 100

// UpdateAlerts marks the caller's alerts read or unread and returns how many
// changed; ids of other accounts' alerts change nothing and count 0.
func (s *Service) UpdateAlerts(ctx context.Context, in AlertUpdate) (int, error) {
	p, err := app.Authorize(ctx, app.OpMonitor)
	if err != nil {
		return 0, err
	}
	if err := s.app.Validate(in); err != nil {
		return 0, err
	}
	if len(in.IDs) == 0 || len(in.IDs) > MaxAlertUpdate {
		return 0, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "ids", Message: "must have 1 to 100 items"}}}
	}
	for i, id := range in.IDs {
		if !app.ValidID(id) {
			return 0, &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: fmt.Sprintf("ids[%d]", i), Message: "must be an alert's id (UUID)"}}}
		}
	}
	return s.store.UpdateAlerts(ctx, p.Account.ID, in.IDs, *in.Read)
}
