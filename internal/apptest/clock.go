package apptest

import (
	"sync/atomic"
	"time"
)

// Clock is the service's clock: time.Now until Set, then the time set, which
// Advance moves. Safe for concurrent use.
type Clock struct{ t atomic.Pointer[time.Time] }

// Now is the service's current time.
func (c *Clock) Now() time.Time {
	if t := c.t.Load(); t != nil {
		return *t
	}
	return time.Now()
}

// Set fixes the time; the zero time returns the clock to time.Now.
func (c *Clock) Set(t time.Time) {
	if t.IsZero() {
		c.t.Store(nil)
		return
	}
	c.t.Store(&t)
}

// Advance moves the clock forward by d from Now.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }
