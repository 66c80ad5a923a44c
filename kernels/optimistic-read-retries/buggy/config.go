// Package buggy is the buggy variant of the optimistic-read-retries kernel.
package buggy

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
	c.a = v
	c.muA.Unlock()
	c.muB.Lock()
	c.b = v
	c.muB.Unlock()
}

// Read returns the current version.
func (c *Config) Read() (int, error) {
	for attempt := 0; attempt < 3; attempt++ {
		// BUG: reads the two halves under separate locks and relies on
		// three attempts being enough to see them consistent; a writer
		// that keeps updating in step defeats every attempt.
		c.muA.Lock()
		a := c.a
		c.muA.Unlock()
		c.muB.Lock()
		b := c.b
		c.muB.Unlock()
		if a == b {
			return a, nil
		}
	}
	return 0, ErrTorn
}
