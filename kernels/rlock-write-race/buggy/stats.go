// Package buggy is the buggy variant of the rlock-write-race kernel.
package buggy

import "sync"

// Stats counts hits.
type Stats struct {
	mu   sync.RWMutex
	hits int
}

// Hit records one hit.
func (s *Stats) Hit() {
	s.mu.RLock() // BUG: a read lock does not exclude other readers that also write
	s.hits++
	s.mu.RUnlock()
}

// Hits returns the number of hits.
func (s *Stats) Hits() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hits
}
