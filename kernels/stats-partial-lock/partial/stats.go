// Package partial is the partial variant of the stats-partial-lock kernel.
package partial

import "sync"

// Stats counts values and sums them.
type Stats struct {
	mu    sync.Mutex
	count int
	sum   int
}

// addSum adds v to the sum.
func (s *Stats) addSum(v int) {
	s.sum += v // BUG: the fix forgot to lock here
}

// Add records v.
func (s *Stats) Add(v int) {
	s.mu.Lock()
	s.count++
	s.mu.Unlock()
	s.addSum(v)
}

// Snapshot returns the count and the sum.
func (s *Stats) Snapshot() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count, s.sum
}
