package monitor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/change"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// leaseMargin is the time a check keeps, at the end of its lease, to record
// what it saw.
const leaseMargin = 2 * time.Second

// fetchMonitored is a check's one request to the monitored page: the
// politeness wait, then the read. Everything a check asks of the page's
// host goes through here (and pageReader, which tests may replace), so
// politeness can wrap it. A *retryError means the page was not asked at
// all and the check is to be made again later, counting no failure.
func (s *Service) fetchMonitored(ctx context.Context, m *Monitor, req fetch.Request) (*app.Document, error) {
	if at, err := s.gate.wait(ctx, m.URL); err != nil {
		// A manual check refused here must not bring the next scheduled
		// (free) check forward; a claimed monitor is already due, so the
		// scheduler's release time is unchanged.
		if m.NextCheckAt.After(at) {
			at = m.NextCheckAt
		}
		return nil, &retryError{At: at, Err: app.Errorf(app.CodeConflict, "the monitor's site was asked too often just now; try again in a few seconds")}
	}
	return s.checkPage(ctx, req)
}

// extractStored extracts a stored raw page with the service's rules.
func (s *Service) extractStored(r *RawPage) (*extract.Document, error) {
	d, err := s.app.ExtractDocument(fetch.Response{Body: r.Body, ContentType: r.ContentType, FinalURL: r.URL})
	if err != nil {
		return nil, err
	}
	return d.Extracted, nil
}

// rawPage is what is kept of a document for re-extraction.
func rawPage(d *app.Document) *RawPage {
	return &RawPage{Body: d.Body, ContentType: d.ContentType, URL: d.FinalURL}
}

func (s *Service) newVersion(monitorID string, doc *extract.Document, at time.Time) *MonitorVersion {
	return &MonitorVersion{MonitorID: monitorID, ContentHash: doc.ContentHash, ExtractorVersion: s.app.ExtractorVersion(),
		Text: doc.Text, WordCount: doc.WordCount, FirstSeenAt: at, LastSeenAt: at}
}

// CheckResult is what one check came to.
type CheckResult int

const (
	// CheckUnchanged: recorded; the current version was seen again (or the
	// server answered 304).
	CheckUnchanged CheckResult = iota
	// CheckChanged: recorded; a new version, with Outcome.Alert when it
	// raised one (a change too soon after the last alert raises none).
	CheckChanged
	// CheckFailed: recorded as the monitor's failure; Outcome.Err is why
	// (an *Error whose Message becomes lastError) and the next check backs
	// off.
	CheckFailed
	// CheckRetry: the check could not be made for a reason that is not the
	// page's (the server busy with analyses, the host asked too often just
	// now, the lease's time ran out, the database, shutdown). Nothing is
	// recorded and no failure counted: the lease is given back with the
	// monitor due again at RetryAt.
	CheckRetry
	// CheckLost: nothing recorded, because the lease was lost or the
	// monitor deleted meanwhile (Err is errNotRecorded) or recording
	// failed (Err is the store's error).
	CheckLost
)

// Outcome is the one value a check returns.
type Outcome struct {
	Result CheckResult
	// Err: CheckFailed's cause (an *Error; a typed failure code travels in
	// it), CheckRetry's reason, CheckLost's cause; nil otherwise.
	Err     error
	Alert   *Alert    // CheckChanged: the alert raised, if any
	RetryAt time.Time // CheckRetry: when the monitor is due again
}

// Recorded says whether the check left its mark on the monitor (a scan
// is spent on it).
func (o Outcome) Recorded() bool {
	return o.Result == CheckUnchanged || o.Result == CheckChanged || o.Result == CheckFailed
}

// retryError marks a check that could not be made for a reason not the
// page's: it is made again from At on, counting no failure.
type retryError struct {
	At  time.Time
	Err error
}

func (e *retryError) Error() string { return e.Err.Error() }
func (e *retryError) Unwrap() error { return e.Err }

// retryDelay is how long a check retried for a passing reason (a busy
// server, the lease's time, the database) waits before it is made again.
const retryDelay = 5 * time.Second

// asRetry classifies a check's error: a *retryError as it is; the server
// busy with analyses, a comparison cut short by the lease, and an internal
// error of the service's own reading (the store) as a retry after
// retryDelay; anything else (the page's answer, a panic in the check) is a
// failure of the monitor, nil here.
func asRetry(err error, now time.Time) *retryError {
	var re *retryError
	if errors.As(err, &re) {
		return re
	}
	switch app.ErrorCode(err) {
	case app.CodeBusy, app.CodeUnavailable:
		return &retryError{At: now.Add(retryDelay), Err: err}
	}
	return nil
}

// runCheck checks m under owner's lease and records what it saw: the
// check's one outcome. A check cut short by ctx (shutdown, the caller gone)
// records nothing and gives its lease back at m's due time, so another
// process checks the monitor at once. A panic anywhere in it is an
// internal error: in the check itself the monitor's failure, past it (the
// record) a lost check; neither check-now nor a scheduler worker ends the
// process.
func (s *Service) runCheck(ctx context.Context, m *Monitor, owner string) (out Outcome) {
	if panicked := app.Catch(func() error { out = s.check(ctx, m, owner); return nil }); panicked != nil {
		return Outcome{Result: CheckLost, Err: panicked}
	}
	return out
}

// check is runCheck without its guard against a panic past the check.
func (s *Service) check(ctx context.Context, m *Monitor, owner string) Outcome {
	cctx, cancel := context.WithTimeout(ctx, s.opts.Lease-leaseMargin)
	defer cancel()
	var rec *CheckRecord
	checkErr := app.Catch(func() (err error) {
		rec, err = s.observe(cctx, m)
		return err
	})
	if ctx.Err() != nil {
		s.release(m, owner, m.NextCheckAt)
		return Outcome{Result: CheckRetry, Err: ctx.Err(), RetryAt: m.NextCheckAt}
	}
	now := s.monitorNow()
	if re := asRetry(checkErr, now); re != nil {
		// A check refused here never brings the next scheduled (free) check
		// forward: a manual check of a monitor not yet due leaves it as it is.
		at := re.At
		if m.NextCheckAt.After(at) {
			at = m.NextCheckAt
		}
		s.release(m, owner, at)
		return Outcome{Result: CheckRetry, Err: re.Err, RetryAt: at}
	}
	out := Outcome{Result: CheckUnchanged}
	if checkErr != nil {
		e := app.AsError(checkErr)
		if e.Code == app.CodeInternal {
			s.log.Error("monitor check failed", "monitor", m.ID, "err", checkErr)
		}
		out = Outcome{Result: CheckFailed, Err: e}
		rec = &CheckRecord{Error: e.Message, Failures: m.ConsecutiveFailures + 1}
		rec.ErrorCode, rec.BlockedBy = failureOf(checkErr)
		rec.NextCheckAt = now.Add(backoff(m.Interval(), rec.Failures))
	} else {
		if rec.Version != nil {
			out = Outcome{Result: CheckChanged, Alert: rec.Alert}
		}
		rec.NextCheckAt = now.Add(m.Interval())
	}
	rec.MonitorID, rec.LeaseOwner, rec.CheckedAt = m.ID, owner, now
	ok, err := s.store.FinishCheck(context.WithoutCancel(ctx), rec)
	if err == nil && !ok {
		err = errNotRecorded
	}
	if err != nil {
		return Outcome{Result: CheckLost, Err: err}
	}
	return out
}

// errNotRecorded: a check's lease was lost, or its monitor deleted, before
// it could record what it saw.
var errNotRecorded = errors.New("monitor check outlived its lease or its monitor; not recorded")

// wholeFetchEvery is the longest a monitor goes without fetching its page
// whole (no validators): a server that answers 304 wrongly cannot hide a
// change for longer.
const wholeFetchEvery = 24 * time.Hour

// conditional says whether m's next fetch may send validators: not when
// its page was last fetched whole wholeFetchEvery ago or more (or never
// since this was recorded).
func conditional(m *Monitor, now time.Time) bool {
	return m.WholeFetchAt != nil && now.Sub(*m.WholeFetchAt) < wholeFetchEvery
}

// observe fetches m's document and compares it with the current version
// (read once here): the record to write, with an alert when the text really
// changed; a text that collapsed against it is refused as structure_changed.
func (s *Service) observe(ctx context.Context, m *Monitor) (*CheckRecord, error) {
	req := fetch.Request{URL: m.URL}
	if conditional(m, s.monitorNow()) {
		req.ETag, req.LastModified = m.ETag, m.LastModified
	}
	pg, err := s.fetchMonitored(ctx, m, req)
	if err != nil {
		return nil, err
	}
	rec := &CheckRecord{ETag: pg.ETag, LastModified: pg.LastModified}
	if pg.NotModified {
		return rec, nil // 304: unchanged
	}
	rec.Whole = true
	if pg.Extracted.ContentHash == m.ContentHash {
		// The current version, seen again. Its stored raw page stays: any
		// fetch of this text re-extracts the same under new rules.
		return rec, nil
	}
	now := s.monitorNow()
	rec.Raw, rec.Version = rawPage(pg), s.newVersion(m.ID, pg.Extracted, now)
	base, err := s.store.FindVersion(ctx, m.ID, m.ContentHash)
	if err != nil {
		return nil, storeRetry(err, now)
	}
	if err := structureChanged(base, pg.Extracted); err != nil {
		return nil, err
	}
	old := base.Text
	if base.ExtractorVersion != s.app.ExtractorVersion() {
		// A technical upgrade: compare against what the new extractor makes
		// of the stored page, so new rules alone never raise an alert.
		raw, err := s.store.FindRawPage(ctx, m.ID)
		if err != nil {
			return nil, storeRetry(err, now)
		}
		if doc, err := s.extractStored(raw); err == nil {
			if doc.ContentHash == pg.Extracted.ContentHash {
				return rec, nil
			}
			old = doc.Text
		}
	}
	// Every change is recorded and, as alertOn says, reported at once, even
	// one soon after the last: a check someone asked for answers what it
	// found, and scheduled checks come once an interval anyway. A page that
	// changes all the time is told apart by the summary's note below.
	changes := m.ConsecutiveChanges + 1
	rec.Alert, err = s.alertFor(ctx, m, old, pg.Extracted, now)
	if err != nil {
		return nil, err
	}
	if rec.Alert != nil && !m.Wants(rec.Alert) {
		rec.Alert = nil // recorded as the current version, without an alert
	}
	if rec.Alert != nil {
		rec.Changes = changes
		if changes >= constantChanges {
			rec.Alert.Summary += fmt.Sprintf("; note: the page changed on each of its last %d checks, it seems to change constantly", changes)
		}
	}
	return rec, nil
}

// storeRetry: the database failing to give a check what it reads is not
// the page's failure; the check is made again later.
func storeRetry(err error, now time.Time) error {
	return &retryError{At: now.Add(retryDelay), Err: err}
}

// constantChanges is how many checks in a row must see a change before an
// alert says the page changes constantly.
const constantChanges = 3

// alertFor describes the change from old to doc's text; nil when no
// paragraph differs once normalized. The diff's work is bounded (past the
// bound it is summarised) and ends with ctx. Its two analyses take one of
// the places API analyses take, so checks and requests share one bound.
func (s *Service) alertFor(ctx context.Context, m *Monitor, old string, doc *extract.Document, at time.Time) (*Alert, error) {
	d, err := change.CompareContext(ctx, old, doc.Text)
	if err != nil {
		// The lease's time ran out, not the page's fault or a bug.
		return nil, &app.Error{Code: app.CodeUnavailable, Message: "the check ran out of time; it will be retried", Err: err}
	}
	if d.Added+d.Removed == 0 {
		return nil, nil
	}
	opts := analyze.Options{DocumentType: doc.DocumentType}
	var before, after analyze.Result
	if err := s.app.InAnalysisPlace(ctx, len(old)+len(doc.Text), func() {
		before, after = s.app.Analyzer().Analyze(old, opts), s.app.Analyzer().Analyze(doc.Text, opts)
	}); err != nil {
		return nil, err
	}
	added, removed := change.FindingsMoved(old, doc.Text, before.Findings, after.Findings)
	a := &Alert{ID: newID(), AccountID: m.AccountID, MonitorID: m.ID, URL: m.URL, DetectedAt: at,
		Summary: change.Summary(d, added, removed), Diff: capDiff(d.Unified), Added: d.Added, Removed: d.Removed,
		GradeBefore: before.Grade, GradeAfter: after.Grade,
		CasesAdded: app.CasesOf(casesMissing(after.Cases, before.Cases)), CasesRemoved: app.CasesOf(casesMissing(before.Cases, after.Cases))}
	a.FindingsAdded, a.FindingsAddedOmitted = capFindings(added)
	a.FindingsRemoved, a.FindingsRemovedOmitted = capFindings(removed)
	return a, nil
}

// casesMissing returns the cases of a whose title b lacks.
func casesMissing(a, b []analyze.Case) []analyze.Case {
	out := []analyze.Case{}
	for _, c := range a {
		if !slices.ContainsFunc(b, func(o analyze.Case) bool { return o.Title == c.Title }) {
			out = append(out, c)
		}
	}
	return out
}

// MaxAlertFindings is the most findings an alert keeps in each of its two
// lists (added, removed); the rest are counted, not kept. Like the diff's
// cap (MaxAlertDiff) it bounds what one change costs to store and to read
// again in every list, feed and tool call: a change of 3,200 findings made
// an alert of 1.1 MB of JSON and a feed entry of 0.9 MB. A hundred is more
// than anyone reads through, and kept most severe first, it holds every
// blocker and bad finding of any document short of a pathological one.
const MaxAlertFindings = 100

// capFindings returns fs most severe first (in fs's order within a
// severity), at most MaxAlertFindings of them, and how many were left out.
func capFindings(fs []analyze.Finding) ([]AlertFinding, int) {
	fs = slices.Clone(fs)
	slices.SortStableFunc(fs, func(a, b analyze.Finding) int {
		return analyze.SeverityRank(a.Severity) - analyze.SeverityRank(b.Severity)
	})
	omitted := max(0, len(fs)-MaxAlertFindings)
	return alertFindings(fs[:len(fs)-omitted]), omitted
}

func alertFindings(fs []analyze.Finding) []AlertFinding {
	out := make([]AlertFinding, len(fs))
	for i, f := range fs {
		out[i] = AlertFinding{Category: f.Category, Severity: f.Severity, Title: f.Title, Quote: f.Quote}
	}
	return out
}

// backoff is the wait after the n-th failure in a row: 30s doubling, never
// more than the interval.
func backoff(interval time.Duration, n int) time.Duration {
	return min(interval, 30*time.Second<<min(n-1, 20))
}

// release gives a lease back unchecked; a failure only means the lease runs out.
func (s *Service) release(m *Monitor, owner string, next time.Time) {
	if err := s.store.ReleaseMonitor(context.Background(), m.ID, owner, next); err != nil {
		s.log.Warn("release monitor", "monitor", m.ID, "err", err)
	}
}

// wakeScheduler tells one sleeping scheduler worker of this process that a
// monitor was created, so it looks again at what is due next.
func (s *Service) wakeScheduler() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pollInterval bounds a scheduler worker's sleep, so monitors created by
// other processes and leases that ran out are picked up within it.
const pollInterval = time.Second

// RunMonitors runs Workers scheduler workers until ctx ends, then waits for
// the checks under way; with 0 workers it runs none and only waits for ctx.
// Each worker claims one due monitor, checks it, records it, and claims
// the next, or sleeps until the next is due (at most pollInterval) or it
// is woken. Several processes may run it on one PostgreSQL database: each
// due monitor is claimed by one of them, and a claim prefers the monitors
// of the accounts with the fewest checks in flight across all of them
// (ClaimDueMonitor).
func (s *Service) RunMonitors(ctx context.Context) error {
	var wg sync.WaitGroup
	for range s.opts.Workers {
		wg.Go(func() { s.monitorWorker(ctx) })
	}
	wg.Wait()
	<-ctx.Done()
	return nil
}

func (s *Service) monitorWorker(ctx context.Context) {
	for ctx.Err() == nil {
		if !s.checkNextDue(ctx) {
			s.sleepUntilDue(ctx)
		}
	}
}

// checkNextDue claims one due monitor and checks it; false when there was
// none to claim.
func (s *Service) checkNextDue(ctx context.Context) bool {
	now, owner := s.monitorNow(), newID()
	m, err := s.store.ClaimDueMonitor(ctx, now, now.Add(s.opts.Lease), owner)
	if err != nil {
		if app.ErrorCode(err) != app.CodeNotFound && ctx.Err() == nil {
			s.log.Error("claim monitor", "err", err)
		}
		return false
	}
	if o := s.runCheck(ctx, m, owner); o.Result == CheckLost && ctx.Err() == nil {
		s.log.Warn("record monitor check", "monitor", m.ID, "err", o.Err)
	}
	return true
}

// sleepUntilDue waits until the earliest unleased monitor is due, at most
// pollInterval, or until woken or ctx ends.
func (s *Service) sleepUntilDue(ctx context.Context) {
	wait := pollInterval
	now := s.monitorNow()
	if next, err := s.store.NextCheckAt(ctx, now); err == nil {
		wait = min(wait, next.Sub(now))
	}
	timer := time.NewTimer(max(wait, time.Millisecond))
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-s.wake:
	case <-timer.C:
	}
}

// MaxAlertDiff is the most of a unified diff an alert keeps, in bytes: a
// page of 100 alerts then holds at most 25 MiB of diffs, and a diff longer
// than this is past reading anyway.
const MaxAlertDiff = 256 << 10

// capDiff cuts a unified diff longer than MaxAlertDiff at a line's end and
// says how many lines were left out.
func capDiff(unified string) string {
	if len(unified) <= MaxAlertDiff {
		return unified
	}
	cut := strings.LastIndexByte(unified[:MaxAlertDiff], '\n') + 1
	left := strings.Count(unified[cut:], "\n")
	return unified[:cut] + fmt.Sprintf("... %d more lines of the diff not shown\n", left)
}
