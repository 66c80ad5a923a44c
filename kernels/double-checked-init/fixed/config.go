// Package fixed is the fixed variant of the double-checked-init kernel.
package fixed

import "sync"

// Config is loaded lazily on first use.
type Config struct {
	once sync.Once
	vals map[string]string
}

// Get returns the value of key, loading the configuration once.
func (c *Config) Get(key string) string {
	c.once.Do(func() {
		c.vals = map[string]string{"mode": "fast"}
	})
	return c.vals[key]
}
