// Package fixed is the fixed variant of the rlock-write-race kernel.
package fixed

import "sync"

// Stats counts hits.
type Stats struct {
	mu   sync.RWMutex
	hits int
}

// Hit records one hit.
func (s *Stats) Hit() {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
}

// Hits returns the number of hits.
func (s *Stats) Hits() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hits
}
