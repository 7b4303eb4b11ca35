package app

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/clausewatch/clausewatch/internal/excerpt"
)

// RequestRecord is one authenticated request, as the usage log keeps it.
type RequestRecord struct {
	At        time.Time
	AccountID string
	KeyID     *string
	KeyPrefix string
	Method    string
	Path      string
	Status    int
	Error     string
}

// Failed reports whether the request counts as an error: an error status,
// or an error message under a 200 (GraphQL answers its errors with 200).
func (r RequestRecord) Failed() bool { return r.Status >= 400 || r.Error != "" }

// KeyUse adds Count requests to a key and moves its lastUsedAt forward.
type KeyUse struct {
	KeyID      string
	Count      int64
	LastUsedAt time.Time
}

// DayCount adds to an account's per-day request counts (UTC day, YYYY-MM-DD).
type DayCount struct {
	AccountID string
	Day       string
	Total     int64
	Errors    int64
}

// UsageBatch is what one flush writes.
type UsageBatch struct {
	Keys     []KeyUse
	Requests []RequestRecord
	Days     []DayCount
}

// RecordRequest notes an authenticated request. It never touches the
// database: Run writes the records in batches at least once a second and
// when it stops, so counting costs the request path nothing.
func (s *Service) RecordRequest(r RequestRecord) {
	// Paths and messages carry caller input; a NUL or invalid UTF-8 would
	// make PostgreSQL refuse the whole batch, so they are cleaned here, and
	// cut, so a request cannot store more than a short line for 90 days.
	r.Path = excerpt.Cut(cleanText(r.Path), MaxStoredPath)
	r.Error = excerpt.Cut(cleanText(r.Error), MaxStoredError)
	s.usage.add(r)
}

// The longest path and error message the usage log keeps, in characters;
// longer ones are cut and end in "…".
const (
	MaxStoredPath  = 200
	MaxStoredError = 200
)

func cleanText(v string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(v, "\x00", ""), "\uFFFD")
}

// FlushUsage writes pending records now (tests, and processes that record
// without Run).
func (s *Service) FlushUsage(ctx context.Context) error { return s.usage.flush(ctx) }

const (
	flushEvery = time.Second
	// maxPending bounds memory when the database is down for long: past it
	// the oldest records are dropped, and what they counted with them.
	maxPending = 100_000
)

type recorder struct {
	store   Store
	mu      sync.Mutex
	pending []RequestRecord
	flushMu sync.Mutex // one flush at a time, so a failed batch is requeued in order
}

func (r *recorder) add(rec RequestRecord) {
	r.mu.Lock()
	if len(r.pending) >= maxPending {
		r.pending = r.pending[1:]
	}
	r.pending = append(r.pending, rec)
	r.mu.Unlock()
}

// flushLoop writes pending records every flushEvery until ctx ends; Run
// writes what is left after it returns.
func (s *Service) flushLoop(ctx context.Context) error {
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			if err := s.usage.flush(fctx); err != nil && ctx.Err() == nil {
				s.log.Error("usage flush failed; will retry", "err", err)
			}
			cancel()
		case <-ctx.Done():
			return nil
		}
	}
}

func (r *recorder) flush(ctx context.Context) error {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	r.mu.Lock()
	batch := r.pending
	r.pending = nil
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := r.store.SaveUsage(ctx, summarize(batch)); err != nil {
		// Put the batch back in front of what arrived meanwhile.
		r.mu.Lock()
		r.pending = append(batch, r.pending...)
		if over := len(r.pending) - maxPending; over > 0 {
			r.pending = r.pending[over:]
		}
		r.mu.Unlock()
		return err
	}
	return nil
}

// summarize folds a batch of records into key counters and day counts.
func summarize(recs []RequestRecord) UsageBatch {
	b := UsageBatch{Requests: recs}
	keys := map[string]int{}
	days := map[[2]string]int{}
	for _, rec := range recs {
		if rec.KeyID != nil {
			i, ok := keys[*rec.KeyID]
			if !ok {
				i = len(b.Keys)
				keys[*rec.KeyID] = i
				b.Keys = append(b.Keys, KeyUse{KeyID: *rec.KeyID})
			}
			b.Keys[i].Count++
			if rec.At.After(b.Keys[i].LastUsedAt) {
				b.Keys[i].LastUsedAt = rec.At
			}
		}
		d := [2]string{rec.AccountID, rec.At.UTC().Format(time.DateOnly)}
		i, ok := days[d]
		if !ok {
			i = len(b.Days)
			days[d] = i
			b.Days = append(b.Days, DayCount{AccountID: d[0], Day: d[1]})
		}
		b.Days[i].Total++
		if rec.Failed() {
			b.Days[i].Errors++
		}
	}
	return b
}

// DailyRequests is one day of a usage window.
type DailyRequests struct {
	Date  string // YYYY-MM-DD
	Count int64
}

// RecentError is one of the newest failed requests.
type RecentError struct {
	At        time.Time
	KeyPrefix string
	Method    string
	Path      string
	Status    int
	Error     string
}

// UsageStats is the per-account aggregate of GET /api/developer/usage (interface.md 2.3).
type UsageStats struct {
	TotalRequests int64
	SuccessCount  int64
	ErrorCount    int64
	SuccessRate   float64
	ErrorRate     float64
	DailyRequests []DailyRequests
	RecentErrors  []RecentError
}

// InvalidDays is the error for a days parameter that is not a whole number
// from 1 to 90, whether a transport could not parse it or Usage refused it.
func InvalidDays() *Error {
	return &Error{Code: CodeInvalid, Message: "invalid query parameter",
		Fields: []FieldError{{Field: "days", Message: "must be a whole number from 1 to 90"}}}
}

// Usage aggregates the caller's account over the last days UTC days (1 to
// 90; nil means the default 30), today included: per-day counts zero-filled, oldest first.
func (s *Service) Usage(ctx context.Context, daysParam *int) (*UsageStats, error) {
	p, err := principalFrom(ctx)
	if err != nil {
		return nil, err
	}
	days := 30
	if daysParam != nil {
		days = *daysParam
	}
	if days < 1 || days > 90 {
		return nil, InvalidDays()
	}
	today := dayWindow(s.now())
	from := today.end.AddDate(0, 0, -days)
	counts, err := s.store.FindDayCounts(ctx, p.Account.ID, from.Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	st := &UsageStats{DailyRequests: make([]DailyRequests, 0, days)}
	byDay := map[string]DayCount{}
	for _, c := range counts {
		byDay[c.Day] = c
	}
	for d := from; d.Before(today.end); d = d.AddDate(0, 0, 1) {
		c := byDay[d.Format(time.DateOnly)]
		st.DailyRequests = append(st.DailyRequests, DailyRequests{Date: d.Format(time.DateOnly), Count: c.Total})
		st.TotalRequests += c.Total
		st.ErrorCount += c.Errors
	}
	st.SuccessCount = st.TotalRequests - st.ErrorCount
	if st.TotalRequests > 0 {
		st.SuccessRate = percent(st.SuccessCount, st.TotalRequests)
		st.ErrorRate = percent(st.ErrorCount, st.TotalRequests)
	}
	if st.RecentErrors, err = s.store.FindRecentErrors(ctx, p.Account.ID, from, 20); err != nil {
		return nil, err
	}
	return st, nil
}

// percent rounds to two decimals, as a dashboard shows it.
func percent(n, of int64) float64 {
	return math.Round(float64(n)*10000/float64(of)) / 100
}

// PruneUsage deletes raw request-log rows older than retention; per-day
// counts are kept.
func (s *Service) PruneUsage(ctx context.Context, retention time.Duration) (int64, error) {
	return s.store.PruneRequests(ctx, s.now().Add(-retention))
}

// pruneEvery is how often Run drops what is past its retention.
const pruneEvery = time.Hour

// Prune is one kind of row dropped past its retention: what it is, for the
// log, and the DELETE that drops it.
type Prune struct {
	What  string
	Prune func(context.Context) (int64, error)
}

// PruneLoop runs prunes at start and every hour until ctx ends, logging
// what each dropped. Several replicas may all do it: the DELETEs are
// idempotent. Monitoring prunes its own history with it too.
func PruneLoop(ctx context.Context, log *slog.Logger, prunes ...Prune) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		for _, p := range prunes {
			if n, err := p.Prune(ctx); err != nil && ctx.Err() == nil {
				log.Warn("prune "+p.What, "err", err)
			} else if n > 0 {
				log.Info("pruned "+p.What, "rows", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// pruneLoop prunes the usage log and the revoked sessions.
func (s *Service) pruneLoop(ctx context.Context) error {
	PruneLoop(ctx, s.log,
		Prune{What: "usage log", Prune: func(ctx context.Context) (int64, error) { return s.PruneUsage(ctx, s.retention) }},
		Prune{What: "revoked sessions", Prune: s.PruneSessions})
	return nil
}
