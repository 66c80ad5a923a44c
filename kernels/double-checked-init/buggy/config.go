// Package buggy is the buggy variant of the double-checked-init kernel.
package buggy

import "sync"

// Config is loaded lazily on first use.
type Config struct {
	mu     sync.Mutex
	loaded bool
	vals   map[string]string
}

// Get returns the value of key, loading the configuration once.
func (c *Config) Get(key string) string {
	if !c.loaded { // BUG: unsynchronized fast-path read (double-checked locking)
		c.mu.Lock()
		if !c.loaded {
			c.vals = map[string]string{"mode": "fast"}
			c.loaded = true
		}
		c.mu.Unlock()
	}
	return c.vals[key]
}
