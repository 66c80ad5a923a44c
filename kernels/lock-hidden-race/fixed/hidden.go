// Package fixed is the fixed variant of the lock-hidden-race kernel.
package fixed

import "sync"

// State is shared by a writer and a reader that also meet at a lock.
type State struct {
	mu    sync.Mutex
	x     int
	calls int
}

// Writer sets x, then does some locked bookkeeping.
func (s *State) Writer() {
	s.mu.Lock()
	s.x = 1
	s.calls++
	s.mu.Unlock()
}

// Reader does some locked bookkeeping, then reads x.
func (s *State) Reader() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return s.x
}
