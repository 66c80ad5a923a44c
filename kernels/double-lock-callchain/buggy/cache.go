// Package buggy is the buggy variant of the double-lock-callchain kernel.
package buggy

import "sync"

// Cache holds one value that a concurrent Invalidate can mark stale; Get
// reloads a stale value on demand.
type Cache struct {
	mu    sync.Mutex
	val   int
	valid bool
	loads int
}

// Set stores v and marks it valid.
func (c *Cache) Set(v int) {
	c.mu.Lock()
	c.val = v
	c.valid = true
	c.loads++
	c.mu.Unlock()
}

// Invalidate marks the value stale.
func (c *Cache) Invalidate() {
	c.mu.Lock()
	c.valid = false
	c.mu.Unlock()
}

// Get returns the value, reloading it when stale.
func (c *Cache) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid {
		c.reload() // BUG: reload reaches Set, which locks c.mu again
	}
	return c.val
}

func (c *Cache) reload() { c.Set(load()) }

func load() int { return 42 }
