// Package buggy is the buggy variant of the lock-hidden-race kernel.
package buggy

import "sync"

// State is shared by a writer and a reader that also meet at a lock.
type State struct {
	mu    sync.Mutex
	x     int
	calls int
}

// Writer sets x, then does some locked bookkeeping.
func (s *State) Writer() {
	s.x = 1 // BUG: outside the lock
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
}

// Reader does some locked bookkeeping, then reads x.
func (s *State) Reader() int {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	return s.x // BUG: outside the lock
}
