package app

import (
	"context"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// places admits analyses by count and by the bytes of text they hold. An
// analysis's memory grows with its text, so a count alone lets eight of
// the longest texts in at once; the text budget makes long ones queue
// behind each other while short ones keep flowing. Waiting for text bytes
// is queueing (up to queueWait), not refusal: a long text is slow, not
// wrong. Waiting for a count place beyond wait is refused as busy, as
// before, so a flood of requests still meets a quick 503.
type places struct {
	count     *semaphore.Weighted
	text      *semaphore.Weighted
	maxText   int64
	wait      time.Duration // for a count place
	queueWait time.Duration // for text bytes

	queued   atomic.Int64 // analyses waiting for text bytes now
	waited   atomic.Int64 // nanoseconds all analyses waited for text bytes
	admitted atomic.Int64
}

func newPlaces(count, text int, wait, queueWait time.Duration) *places {
	return &places{count: semaphore.NewWeighted(int64(count)), text: semaphore.NewWeighted(int64(text)),
		maxText: int64(text), wait: wait, queueWait: queueWait}
}

// take admits one analysis of a text of n bytes, or says the server is
// busy. A text longer than the whole budget weighs the whole budget: it
// runs alone rather than never.
func (p *places) take(ctx context.Context, n int) (release func(), err error) {
	w := min(max(int64(n), 1), p.maxText)
	start := time.Now()
	if !p.text.TryAcquire(w) {
		p.queued.Add(1)
		qctx, cancel := context.WithTimeout(ctx, p.queueWait)
		err := p.text.Acquire(qctx, w)
		cancel()
		p.queued.Add(-1)
		p.waited.Add(int64(time.Since(start)))
		if err != nil {
			if ctx.Err() != nil {
				return nil, Errorf(CodeBusy, "the request ended while waiting for a place to run")
			}
			return nil, Errorf(CodeBusy, "the server is busy with other long analyses; retry in a minute")
		}
	}
	if err := p.takeCount(ctx); err != nil {
		p.text.Release(w)
		return nil, err
	}
	p.admitted.Add(1)
	return func() { p.count.Release(1); p.text.Release(w) }, nil
}

func (p *places) takeCount(ctx context.Context) error {
	if p.count.TryAcquire(1) {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, p.wait)
	defer cancel()
	if err := p.count.Acquire(wctx, 1); err != nil {
		if ctx.Err() != nil {
			return Errorf(CodeBusy, "the request ended while waiting for a place to run")
		}
		return Errorf(CodeBusy, "the server is busy with other analyses; retry in a moment")
	}
	return nil
}

// AnalysisQueue is what the analysis admission has done since the start,
// for metrics.
type AnalysisQueue struct {
	Queued   int           // analyses waiting for text bytes now
	Admitted int64         // analyses admitted
	Waited   time.Duration // the time all admitted or refused analyses spent queued for text bytes
}

// AnalysisQueue reports the admission's queue.
func (s *Service) AnalysisQueue() AnalysisQueue {
	p := s.places
	return AnalysisQueue{Queued: int(p.queued.Load()), Admitted: p.admitted.Load(), Waited: time.Duration(p.waited.Load())}
}
