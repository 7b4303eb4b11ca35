package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/change"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// MonitorOptions configure monitoring. The zero value is usable: no
// scheduler workers, 1h minimum interval, 1s between requests to one host.
type MonitorOptions struct {
	// Workers is how many checks RunMonitors runs at once; 0 runs none.
	Workers int
	// MinInterval is the shortest interval a monitor may have (default 1h).
	MinInterval time.Duration
	// HostInterval is the least time between two requests to one host from
	// this process (default 1s; negative: no limit).
	HostInterval time.Duration
	// Lease is how long a claimed check may take before another process may
	// claim the monitor again (default 35s). It must exceed the fetch
	// timeout: a check gives up well before its lease ends.
	Lease time.Duration
}

func (o *MonitorOptions) setDefaults() {
	if o.MinInterval <= 0 {
		o.MinInterval = time.Hour
	}
	if o.HostInterval == 0 {
		o.HostInterval = time.Second
	}
	if o.Lease <= 0 {
		o.Lease = 35 * time.Second
	}
}

// leaseMargin is the time a check keeps, at the end of its lease, to record
// what it saw.
const leaseMargin = 2 * time.Second

// monitorNow is the service's clock at the precision both databases keep.
func (s *Service) monitorNow() time.Time { return s.now().Truncate(time.Millisecond) }

// readPage reads a monitored URL (conditionally, given validators) by the
// service's one document path.
func (s *Service) readPage(ctx context.Context, req fetch.Request) (*Document, error) {
	return s.ReadDocument(ctx, req)
}

// extractStored extracts a stored raw page with the service's rules.
func (s *Service) extractStored(r *RawPage) (*extract.Document, error) {
	d, err := s.ExtractDocument(fetch.Response{Body: r.Body, ContentType: r.ContentType, FinalURL: r.URL})
	if err != nil {
		return nil, err
	}
	return d.Extracted, nil
}

// rawPage is what is kept of a document for re-extraction.
func rawPage(d *Document) *RawPage {
	return &RawPage{Body: d.Body, ContentType: d.ContentType, URL: d.FinalURL}
}

func (s *Service) newVersion(monitorID string, doc *extract.Document, at time.Time) *MonitorVersion {
	return &MonitorVersion{MonitorID: monitorID, ContentHash: doc.ContentHash, ExtractorVersion: s.extractor.Version(),
		Text: doc.Text, WordCount: doc.WordCount, FirstSeenAt: at, LastSeenAt: at}
}

// runCheck checks m under owner's lease and records the outcome. checkErr
// is why the check failed (recorded as the monitor's lastError, a panic as
// an internal error); err is a failure to record it, errNotRecorded when
// the lease was lost or the monitor deleted meanwhile. A check cut short by
// ctx records nothing and gives its lease back, so another process checks
// the monitor at once. A panic past the check itself is returned as an
// internal error, so neither check-now nor a scheduler worker ends the
// process.
func (s *Service) runCheck(ctx context.Context, m *Monitor, owner string) (checkErr, err error) {
	defer recoverInto(&err)
	cctx, cancel := context.WithTimeout(ctx, s.mon.Lease-leaseMargin)
	defer cancel()
	if at, err := s.gate.wait(cctx, hostOf(m.URL)); err != nil {
		// A manual check refused here must not bring the next scheduled
		// (free) check forward; a claimed monitor is already due, so the
		// scheduler's release time is unchanged.
		if m.NextCheckAt.After(at) {
			at = m.NextCheckAt
		}
		s.release(m, owner, at)
		return nil, Errorf(CodeConflict, "the monitor's site was asked too often just now; try again in a few seconds")
	}
	var rec *CheckRecord
	checkErr = catch(func() (err error) {
		rec, err = s.observe(cctx, m)
		return err
	})
	if ctx.Err() != nil {
		s.release(m, owner, m.NextCheckAt)
		return nil, ctx.Err()
	}
	now := s.monitorNow()
	if checkErr != nil {
		e := AsError(checkErr)
		if e.Code == CodeInternal {
			s.log.Error("monitor check failed", "monitor", m.ID, "err", checkErr)
		}
		rec = &CheckRecord{Error: e.Message, Failures: m.ConsecutiveFailures + 1}
		rec.NextCheckAt = now.Add(backoff(m.Interval(), rec.Failures))
	} else {
		rec.NextCheckAt = now.Add(m.Interval())
	}
	rec.MonitorID, rec.LeaseOwner, rec.CheckedAt = m.ID, owner, now
	ok, err := s.store.FinishCheck(context.WithoutCancel(ctx), rec)
	if err == nil && !ok {
		err = errNotRecorded
	}
	return checkErr, err
}

// errNotRecorded: a check's lease was lost, or its monitor deleted, before
// it could record what it saw.
var errNotRecorded = errors.New("monitor check outlived its lease or its monitor; not recorded")

// observe fetches m's document and compares it with the current version:
// the record to write, with an alert when the text really changed.
func (s *Service) observe(ctx context.Context, m *Monitor) (*CheckRecord, error) {
	pg, err := s.readPage(ctx, fetch.Request{URL: m.URL, ETag: m.ETag, LastModified: m.LastModified})
	if err != nil {
		return nil, err
	}
	rec := &CheckRecord{ETag: pg.ETag, LastModified: pg.LastModified}
	if pg.NotModified {
		return rec, nil // 304: unchanged
	}
	if pg.Extracted.ContentHash == m.ContentHash {
		// The current version, seen again. Its stored raw page stays: any
		// fetch of this text re-extracts the same under new rules.
		return rec, nil
	}
	now := s.monitorNow()
	rec.Raw, rec.Version = rawPage(pg), s.newVersion(m.ID, pg.Extracted, now)
	base, err := s.store.FindVersion(ctx, m.ID, m.ContentHash)
	if err != nil {
		return nil, err
	}
	old := base.Text
	if base.ExtractorVersion != s.extractor.Version() {
		// A technical upgrade: compare against what the new extractor makes
		// of the stored page, so new rules alone never raise an alert.
		raw, err := s.store.FindRawPage(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		if doc, err := s.extractStored(raw); err == nil {
			if doc.ContentHash == pg.Extracted.ContentHash {
				return rec, nil
			}
			old = doc.Text
		}
	}
	changes := m.ConsecutiveChanges + 1
	if m.LastChangedAt != nil && now.Sub(*m.LastChangedAt) < m.Interval() {
		// At most one alert an interval: the change waits, unrecorded, for
		// the first check an interval after the last alert, which compares
		// with the version that alert left. Without validators that check
		// fetches the page whole, so a 304 cannot hide the change.
		return &CheckRecord{Changes: changes, Deferred: true}, nil
	}
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
		return nil, &Error{Code: CodeUnavailable, Message: "the check ran out of time; it will be retried", Err: err}
	}
	if d.Added+d.Removed == 0 {
		return nil, nil
	}
	opts := analyze.Options{DocumentType: doc.DocumentType}
	var before, after analyze.Result
	if err := s.inAnalysisPlace(ctx, func() {
		before, after = s.analyzer.Analyze(old, opts), s.analyzer.Analyze(doc.Text, opts)
	}); err != nil {
		return nil, err
	}
	added, removed := change.FindingsMoved(old, doc.Text, before.Findings, after.Findings)
	return &Alert{ID: newID(), AccountID: m.AccountID, MonitorID: m.ID, URL: m.URL, DetectedAt: at,
		Summary: change.Summary(d, added, removed), Diff: capDiff(d.Unified), Added: d.Added, Removed: d.Removed,
		FindingsAdded: alertFindings(added), FindingsRemoved: alertFindings(removed),
		GradeBefore: before.Grade, GradeAfter: after.Grade,
		CasesAdded: casesOf(casesMissing(after.Cases, before.Cases)), CasesRemoved: casesOf(casesMissing(before.Cases, after.Cases))}, nil
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

func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Host
	}
	return u
}

// wakeScheduler tells this process's scheduler that a monitor was created.
func (s *Service) wakeScheduler() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pollInterval bounds the scheduler's sleep, so monitors created by other
// processes and leases that ran out are picked up within it.
const pollInterval = time.Second

// RunMonitors checks due monitors until ctx ends, at most Workers at once,
// then waits for the checks under way. Several processes may run it on one
// PostgreSQL database: each due monitor is claimed by one of them.
func (s *Service) RunMonitors(ctx context.Context) error {
	workers := s.mon.Workers
	if workers <= 0 {
		<-ctx.Done()
		return nil
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	done := make(chan struct{}, workers)
	busy := 0
	for {
		wait := pollInterval
		if busy < workers {
			now, owner := s.monitorNow(), newID()
			ms, err := s.store.ClaimDueMonitors(ctx, now, now.Add(s.mon.Lease), owner, workers-busy)
			if err != nil && ctx.Err() == nil {
				s.log.Error("claim monitors", "err", err)
			}
			for _, m := range ms {
				busy++
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := s.runCheck(ctx, &m, owner); err != nil && ctx.Err() == nil {
						s.log.Warn("record monitor check", "monitor", m.ID, "err", err)
					}
					done <- struct{}{}
				}()
			}
			if busy < workers && err == nil {
				// Without a monitor to check (not_found) the wait stays.
				if next, err := s.store.NextCheckAt(ctx, now); err == nil {
					wait = min(wait, next.Sub(s.now()))
				}
			}
		}
		timer := time.NewTimer(max(wait, time.Millisecond))
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-done:
			busy--
		case <-s.wake:
		case <-timer.C:
		}
		timer.Stop()
		for drained := false; !drained; {
			select {
			case <-done:
				busy--
			default:
				drained = true
			}
		}
	}
}

var errHostBusy = errors.New("host busy")

// hostGate spaces this process's requests to one host (politeness).
type hostGate struct {
	gap  time.Duration
	mu   sync.Mutex
	next map[string]time.Time
}

// wait returns when the host may be asked again. When that is past ctx's
// deadline it returns at once with the time and errHostBusy, taking no turn.
func (g *hostGate) wait(ctx context.Context, host string) (time.Time, error) {
	if g.gap <= 0 {
		return time.Time{}, nil
	}
	g.mu.Lock()
	now := time.Now()
	at := now
	if t := g.next[host]; t.After(now) {
		at = t
	}
	if dl, ok := ctx.Deadline(); ok && at.After(dl) {
		g.mu.Unlock()
		return at, errHostBusy
	}
	if len(g.next) > 10000 { // forget hosts whose turn has passed
		for h, t := range g.next {
			if t.Before(now) {
				delete(g.next, h)
			}
		}
	}
	g.next[host] = at.Add(g.gap)
	g.mu.Unlock()
	t := time.NewTimer(at.Sub(now))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return at, ctx.Err()
	case <-t.C:
		return at, nil
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
