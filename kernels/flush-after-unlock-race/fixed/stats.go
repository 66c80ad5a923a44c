// Package fixed is the fixed variant of the flush-after-unlock-race kernel.
package fixed

import (
	"sync"
	"time"
)

// Stats counts events and publishes the count at each flush.
type Stats struct {
	mu      sync.Mutex
	n       int
	flushed int
}

// Add counts one event.
func (s *Stats) Add() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Snapshot returns the count of the last flush.
func (s *Stats) Snapshot() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushed
}

// FlushAfter flushes once, after interval, and closes done.
func (s *Stats) FlushAfter(interval time.Duration, done chan<- struct{}) {
	defer close(done)
	<-time.After(interval)
	s.mu.Lock()
	s.flushed = s.n
	s.mu.Unlock()
}
