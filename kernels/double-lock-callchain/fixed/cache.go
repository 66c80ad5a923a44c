// Package fixed is the fixed variant of the double-lock-callchain kernel.
package fixed

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
	c.setLocked(v)
	c.mu.Unlock()
}

func (c *Cache) setLocked(v int) {
	c.val = v
	c.valid = true
	c.loads++
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
		c.reloadLocked()
	}
	return c.val
}

// reloadLocked must be called with c.mu held.
func (c *Cache) reloadLocked() { c.setLocked(load()) }

func load() int { return 42 }
