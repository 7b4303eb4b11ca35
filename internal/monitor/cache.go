package monitor

import "sync"

// cacheSize bounds each of monitoring's memories (version grades, robots.txt
// rules, hosts' failures in a row).
const cacheSize = 10000

// cache is a map safe for concurrent use that holds at most cacheSize
// entries: past that it starts over. What it holds can always be had again
// (a grade analyzed anew, a robots.txt read again, a host's failures read
// at its next turn), so forgetting costs some work, never a wrong answer.
// The zero value is empty and ready.
type cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= cacheSize {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}
