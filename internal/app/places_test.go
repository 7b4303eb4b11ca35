package app

import (
	"context"
	"errors"
	"testing"
	"time"
)

func mustTake(t *testing.T, p *places, n int) func() {
	t.Helper()
	release, err := p.take(context.Background(), n)
	if err != nil {
		t.Fatalf("take(%d): %v", n, err)
	}
	return release
}

func wantBusy(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeBusy {
		t.Fatalf("err = %v, want code %s", err, CodeBusy)
	}
}

// A long text waits for the text in analysis to make room, however long
// the count's own wait, and is admitted when it does: queued, not refused.
func TestLongTextQueuesForTheTextBudget(t *testing.T) {
	p := newPlaces(8, 100, time.Millisecond, time.Minute)
	first := mustTake(t, p, 80)
	admitted := make(chan error, 1)
	go func() {
		release, err := p.take(context.Background(), 80)
		if err == nil {
			release()
		}
		admitted <- err
	}()
	for p.queued.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-admitted:
		t.Fatalf("admitted while the budget was full: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	first()
	if err := <-admitted; err != nil {
		t.Fatalf("queued analysis refused: %v", err)
	}
	if q := p.queued.Load(); q != 0 {
		t.Errorf("queued = %d after admission, want 0", q)
	}
	if p.waited.Load() <= 0 || p.admitted.Load() != 2 {
		t.Errorf("waited %v, admitted %d; want a wait recorded and 2 admitted", time.Duration(p.waited.Load()), p.admitted.Load())
	}
}

// Short texts share the budget: they run together while it has room.
func TestShortTextsRunTogether(t *testing.T) {
	p := newPlaces(8, 100, time.Millisecond, time.Millisecond)
	for range 4 {
		defer mustTake(t, p, 25)()
	}
	_, err := p.take(context.Background(), 1)
	wantBusy(t, err) // the fifth finds the budget full and waits only queueWait
}

// A text longer than the whole budget runs alone rather than never.
func TestTextOverTheBudgetRunsAlone(t *testing.T) {
	p := newPlaces(8, 100, time.Millisecond, 5*time.Millisecond)
	release := mustTake(t, p, 1_000)
	_, err := p.take(context.Background(), 1)
	wantBusy(t, err)
	release()
	mustTake(t, p, 1)()
}

// The count still bounds analyses: beyond it one waits a moment, then busy.
func TestCountRefusesAfterItsWait(t *testing.T) {
	p := newPlaces(1, 100, 5*time.Millisecond, time.Minute)
	defer mustTake(t, p, 1)()
	_, err := p.take(context.Background(), 1)
	wantBusy(t, err)
	if _, err := p.take(context.Background(), 1); err == nil {
		t.Fatal("admitted past the count")
	}
	// The refused analysis gave its text back: the budget is whole again.
	if !p.text.TryAcquire(99) {
		t.Fatal("a refused analysis kept its share of the text budget")
	}
}

// A request that ends while queued leaves the queue, refused as busy.
func TestQueuedRequestEnds(t *testing.T) {
	p := newPlaces(8, 100, time.Millisecond, time.Minute)
	defer mustTake(t, p, 100)()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	_, err := p.take(ctx, 50)
	wantBusy(t, err)
	if q := p.queued.Load(); q != 0 {
		t.Errorf("queued = %d, want 0", q)
	}
}
