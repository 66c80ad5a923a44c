// Package buggy is the buggy variant of the field-set-after-start-race kernel.
package buggy

import "sync"

// Cache holds entries tagged with the generation that loaded them.
type Cache struct {
	mu      sync.Mutex
	gen     int
	entries map[string]int
	loaded  chan struct{}
}

// NewCache returns an empty cache at generation 0.
func NewCache() *Cache { return &Cache{entries: make(map[string]int)} }

// Reload starts loading a new generation of keys in the background;
// Loaded is closed when it is done.
func (c *Cache) Reload(keys []string) {
	c.gen = c.startLoad(keys)
}

// Loaded returns a channel closed when the last reload is done.
func (c *Cache) Loaded() <-chan struct{} { return c.loaded }

// Entry returns the generation that loaded key.
func (c *Cache) Entry(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

// startLoad starts the loader of the next generation and returns its
// number.
func (c *Cache) startLoad(keys []string) int {
	gen := c.gen + 1
	loaded := make(chan struct{})
	c.loaded = loaded
	go func() {
		defer close(loaded)
		for _, k := range keys {
			c.mu.Lock()
			c.entries[k] = c.gen // BUG: c.gen is assigned only when startLoad returns
			c.mu.Unlock()
		}
	}()
	return gen
}
