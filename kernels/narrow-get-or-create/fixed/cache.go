// Package fixed is the fixed variant of the narrow-get-or-create kernel.
package fixed

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

// GetOrCreate returns the value of k, creating it with make if absent.
func (c *Cache) GetOrCreate(k string, create func() int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v := create()
	c.created.Add(1)
	c.m[k] = v
	return v
}
