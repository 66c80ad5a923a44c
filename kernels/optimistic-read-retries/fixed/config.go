// Package fixed is the fixed variant of the optimistic-read-retries kernel.
package fixed

import (
	"errors"
	"sync"
)

// ErrTorn reports that no consistent version of the configuration could be
// read.
var ErrTorn = errors.New("torn read")

// Config is a configuration stored in two halves that must carry the same
// version.
type Config struct {
	muA, muB sync.Mutex
	a, b     int
}

// Update publishes version v in both halves.
func (c *Config) Update(v int) {
	c.muA.Lock()
	defer c.muA.Unlock()
	c.muB.Lock()
	defer c.muB.Unlock()
	c.a = v
	c.b = v
}

// Read returns the current version.
func (c *Config) Read() (int, error) {
	c.muA.Lock()
	defer c.muA.Unlock()
	c.muB.Lock()
	defer c.muB.Unlock()
	if c.a != c.b {
		return 0, ErrTorn
	}
	return c.a, nil
}
