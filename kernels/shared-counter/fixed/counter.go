// Package fixed is the fixed variant of the shared-counter kernel.
package fixed

import "sync"

// Counter counts events from many goroutines.
type Counter struct {
	mu    sync.Mutex
	count int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.count++
	c.mu.Unlock()
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count
}
