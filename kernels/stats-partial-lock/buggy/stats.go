// Package buggy is the buggy variant of the stats-partial-lock kernel.
package buggy

import "sync"

// Stats counts values and sums them.
type Stats struct {
	mu    sync.Mutex
	count int
	sum   int
}

// Add records v.
func (s *Stats) Add(v int) {
	s.count++ // BUG: unsynchronized
	s.sum += v
}

// Snapshot returns the count and the sum.
func (s *Stats) Snapshot() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count, s.sum
}
