// Package fixed is the fixed variant of the publish-flag-race kernel.
package fixed

import "sync/atomic"

// Box publishes data from one goroutine to another.
type Box struct {
	data  []int
	ready atomic.Bool
}

// Publish stores data and marks it ready. The atomic store orders the
// data write before any load that observes ready.
func (b *Box) Publish(data []int) {
	b.data = data
	b.ready.Store(true)
}

// Get returns the data if it has been published.
func (b *Box) Get() ([]int, bool) {
	if !b.ready.Load() {
		return nil, false
	}
	return b.data, true
}
