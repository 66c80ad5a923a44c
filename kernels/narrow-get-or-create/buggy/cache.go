// Package buggy is the buggy variant of the narrow-get-or-create kernel.
package buggy

import (
	"sync"
	"sync/atomic"
)

// Cache creates each value once.
type Cache struct {
	mu      sync.Mutex
	m       map[string]int
	created atomic.Int32
}

func (c *Cache) lookup(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *Cache) store(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// GetOrCreate returns the value of k, creating it with make if absent.
func (c *Cache) GetOrCreate(k string, create func() int) int {
	if v, ok := c.lookup(k); ok {
		return v
	}
	// BUG: another caller may create k between lookup and store.
	v := create()
	c.created.Add(1)
	c.store(k, v)
	return v
}
