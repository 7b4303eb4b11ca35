package monitor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/extract"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// Politeness, shared by every replica: a monitor's check asks a host only
// when the host's turn in the database schedule has come (one conditional
// UPDATE takes it), only for pages its robots.txt allows, and then spaces
// the host's next turn by what the answer said: how long it took, the
// robots.txt Crawl-delay, the host's errors in a row, a Retry-After.

// HostTurn is what taking a host's turn returns: when not taken, when the
// host may be asked next; when taken, its failures in a row so far.
type HostTurn struct {
	NextMs int64 // Unix milliseconds
	Errors int
}

type hostStore interface {
	// TakeHostTurn takes host's turn at nowMs when it has come, setting the
	// next one to nowMs plus the host's delay (at least floorMs); ok is
	// false, with the time of the next turn, when it has not. Any number
	// of processes may ask at once: one turn goes to one of them.
	TakeHostTurn(ctx context.Context, host string, nowMs, floorMs int64) (turn HostTurn, ok bool, err error)
	// RecordHostFetch sets the host's delay and its failures in a row
	// after a request, and moves its next turn to notBeforeMs unless it is
	// later already.
	RecordHostFetch(ctx context.Context, host string, delayMs int64, errors int, notBeforeMs int64) error
	// PruneHosts forgets the hosts whose next turn is before beforeMs.
	PruneHosts(ctx context.Context, beforeMs int64) (int64, error)
}

// Politeness bounds. A host's delay is the largest of the configured
// interval, responseFactor times its last response time and its
// Crawl-delay (capped at maxCrawlDelay), doubled for each failure in a row
// (at most errorDoublings times) and never over maxHostDelay; a
// Retry-After holds the host for up to maxRetryAfter.
const (
	responseFactor = 2
	maxCrawlDelay  = 30 * time.Second
	errorDoublings = 6
	maxHostDelay   = 10 * time.Minute
	maxRetryAfter  = 6 * time.Hour
	// robots.txt is kept this long (RFC 9309 section 2.4: at most 24h),
	// and an unreachable one (a 429, a 5xx, no answer) this long.
	robotsTTL      = 24 * time.Hour
	robotsRetryTTL = time.Minute
	// Hosts not asked for this long leave the schedule.
	hostForgetAfter = 7 * 24 * time.Hour
)

var errHostBusy = errors.New("host busy")

// politeness is the service's per-host schedule and robots.txt cache.
type politeness struct {
	store   hostStore
	log     *slog.Logger
	fetcher *fetch.Client
	now     func() time.Time
	// floor is the least time between two requests to one host, across
	// every process (Options.HostInterval); negative: no schedule.
	floor time.Duration

	robots cache[string, robotsEntry] // by origin (scheme://host:port)
	errors cache[string, int]         // by host: its failures in a row, as its last turn said
}

type robotsEntry struct {
	rules fetch.Rules
	err   error // the site could not be reached at all
	until time.Time
}

// hostKey is the schedule's name for rawURL's host (fetch.HostKey), so
// "example.com.", "EXAMPLE.com" and "example.com:443" share one schedule.
func hostKey(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return fetch.HostKey(u)
	}
	return strings.ToLower(rawURL)
}

func originOf(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return strings.ToLower(u.Scheme) + "://" + fetch.HostKey(u)
	}
	return rawURL
}

// wait returns when rawURL's host may be asked, its turn taken. When the
// turn comes past ctx's deadline it returns at once with the turn's time
// and errHostBusy, taking nothing. A host whose robots.txt is not known
// yet is asked for it first, on this turn, and wait then takes the next.
func (p *politeness) wait(ctx context.Context, rawURL string) (time.Time, error) {
	host := hostKey(rawURL)
	if at, err := p.turn(ctx, host); err != nil {
		return at, err
	}
	if _, ok := p.cachedRobots(rawURL); ok {
		return time.Time{}, nil
	}
	p.fetchRobots(ctx, rawURL)
	return p.turn(ctx, host)
}

// turn takes host's turn in the shared schedule, sleeping until it comes.
func (p *politeness) turn(ctx context.Context, host string) (time.Time, error) {
	if p.floor < 0 {
		return time.Time{}, nil
	}
	for {
		now := p.now()
		t, ok, err := p.store.TakeHostTurn(ctx, host, now.UnixMilli(), p.floor.Milliseconds())
		if err != nil {
			return now, err
		}
		if ok {
			p.errors.put(host, t.Errors)
			return now, nil
		}
		at := time.UnixMilli(t.NextMs)
		if dl, ok := ctx.Deadline(); ok && at.After(dl) {
			return at, errHostBusy
		}
		timer := time.NewTimer(at.Sub(now))
		select {
		case <-ctx.Done():
			timer.Stop()
			return at, ctx.Err()
		case <-timer.C:
		}
	}
}

// hostFailure reports whether a failure says the host is struggling or
// refusing us, so that it should be asked less often.
func hostFailure(code fetch.Code) bool {
	switch code {
	case fetch.CodeTimeout, fetch.CodeConnect, fetch.CodeHTTP429, fetch.CodeHTTP5xx, fetch.CodeBlocked:
		return true
	}
	return false
}

// record spaces host's next turn after a request that took elapsed and
// failed with err (nil: it was answered).
func (p *politeness) record(ctx context.Context, rawURL string, elapsed time.Duration, err error) {
	if p.floor < 0 {
		return
	}
	host := hostKey(rawURL)
	delay := max(p.floor, responseFactor*elapsed)
	if e, ok := p.cachedRobots(rawURL); ok {
		delay = max(delay, min(e.rules.CrawlDelay, maxCrawlDelay))
	}
	var fe *fetch.Error
	errs, retryAfter := 0, time.Duration(0)
	if errors.As(err, &fe) {
		if hostFailure(fe.Code) {
			n, _ := p.errors.get(host)
			errs = n + 1
		}
		retryAfter = min(fe.RetryAfter, maxRetryAfter)
	}
	delay = min(max(delay<<min(errs, errorDoublings), delay), max(maxHostDelay, delay))
	notBefore := p.now().Add(max(delay, retryAfter))
	if err := p.store.RecordHostFetch(context.WithoutCancel(ctx), host, delay.Milliseconds(), errs, notBefore.UnixMilli()); err != nil {
		p.log.Warn("record host fetch", "host", host, "err", err)
	}
}

func (p *politeness) cachedRobots(rawURL string) (robotsEntry, bool) {
	e, ok := p.robots.get(originOf(rawURL))
	if !ok || p.now().After(e.until) {
		return robotsEntry{}, false
	}
	return e, true
}

// fetchRobots reads rawURL's robots.txt into the cache; its request is
// spaced like any other.
func (p *politeness) fetchRobots(ctx context.Context, rawURL string) robotsEntry {
	start := p.now()
	r, err := p.fetcher.Robots(ctx, rawURL)
	elapsed := p.now().Sub(start)
	e := robotsEntry{err: err, until: p.now().Add(robotsRetryTTL)}
	if err == nil {
		e.rules = r.For(fetch.RobotsToken)
		if r.Status != 429 && r.Status < 500 {
			e.until = p.now().Add(robotsTTL)
		} else {
			e.err = &fetch.Error{Kind: fetch.KindUpstream, Code: fetch.CodeRobots,
				Msg: fmt.Sprintf("the site's robots.txt answered %d, which RFC 9309 reads as disallowing every page for now; the check will be retried", r.Status)}
		}
	}
	if ctx.Err() != nil {
		p.record(ctx, rawURL, elapsed, err)
		return e // cut short: not kept
	}
	p.robots.put(originOf(rawURL), e)
	p.record(ctx, rawURL, elapsed, err) // after the cache: its Crawl-delay counts
	return e
}

// allowed is nil when robots.txt lets the service read rawURL, else why
// not: the failure to reach robots.txt (or the site), or robots.txt's
// refusal, unreadable (422) with errorCode robots and the rule that matched.
func (p *politeness) allowed(ctx context.Context, rawURL string) error {
	e, ok := p.cachedRobots(rawURL)
	if !ok {
		e = p.fetchRobots(ctx, rawURL)
	}
	if e.err != nil {
		return app.FetchError(e.err)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return app.FetchError(err)
	}
	if ok, rule := e.rules.Verdict(u); !ok {
		refusal := app.AsError(app.FetchError(&fetch.Error{Kind: fetch.KindUnreadable, Code: fetch.CodeRobots,
			Msg: fmt.Sprintf("the site's robots.txt disallows this page for %s (%s); ask the site to allow it, or watch another page",
				fetch.RobotsToken, cmp.Or(rule, "every page"))}))
		refusal.Data = map[string]any{"errorCode": string(fetch.CodeRobots), "rule": rule}
		return refusal
	}
	return nil
}

// checkPage is a monitor check's read of its page: allowed by robots.txt,
// and spaced in the host's schedule by what it saw. The caller has taken
// the host's turn (politeness.wait, in fetchMonitored).
func (s *Service) checkPage(ctx context.Context, req fetch.Request) (*app.Document, error) {
	if err := s.gate.allowed(ctx, req.URL); err != nil {
		return nil, err
	}
	start := s.now()
	pg, err := s.pageReader(ctx, req)
	s.gate.record(ctx, req.URL, s.now().Sub(start), err)
	return pg, err
}

// A new text is a structure change, not a content change, when it has
// under collapsedShare of the words of a version that had at least
// minStructureWords, or when a legal text no longer reads as one at all.
const (
	collapsedShare    = 0.5
	minStructureWords = 50
)

// structureChanged refuses doc as structure_changed when it collapsed
// against the current version base: the page still answers, but its text
// is not the document any more. nil when it did not collapse.
func structureChanged(base *MonitorVersion, doc *extract.Document) error {
	var why string
	if base.WordCount >= minStructureWords && float64(doc.WordCount) < collapsedShare*float64(base.WordCount) {
		why = fmt.Sprintf("its text shrank from %d to %d words", base.WordCount, doc.WordCount)
	} else if was, is := extract.DetectType("", base.Text), extract.DetectType("", doc.Text); was != "other" && is == "other" {
		// Only a legal text turning into none counts: between terms and
		// privacy the type of a text alone is too close to call.
		why = fmt.Sprintf("its text no longer reads as a legal document (it read as %s)", was)
	} else {
		return nil
	}
	return app.FetchError(&fetch.Error{Kind: fetch.KindUnreadable, Code: fetch.CodeStructChanged,
		Msg: "the page still answers, but " + why + "; its layout probably changed or it now shows something else. No alert was raised and the last version is kept: check the page"})
}

// failureOf is the failure code and the bot protection a check's error
// records (Monitor.LastErrorCode, Monitor.BlockedBy).
func failureOf(err error) (code, blockedBy string) {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return string(fe.Code), fe.BlockedBy
	}
	switch app.ErrorCode(err) {
	case app.CodeTimeout, app.CodeUnavailable:
		return string(fetch.CodeTimeout), ""
	case app.CodeUnreadable:
		return string(fetch.CodeNotADocument), ""
	}
	return "internal", ""
}

// pruneHosts forgets the hosts no process has asked for a week.
func (s *Service) pruneHosts(ctx context.Context) (int64, error) {
	return s.store.PruneHosts(ctx, s.now().Add(-hostForgetAfter).UnixMilli())
}
