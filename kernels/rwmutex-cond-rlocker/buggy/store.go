// Package buggy is the buggy variant of the rwmutex-cond-rlocker kernel.
package buggy

import "sync"

// Store holds a value that readers wait for.
type Store struct {
	mu    sync.RWMutex
	ready *sync.Cond // L is mu.RLocker()
	val   int
	set   bool
}

// NewStore returns an empty store.
func NewStore() *Store {
	s := &Store{}
	s.ready = sync.NewCond(s.mu.RLocker())
	return s
}

// Put sets the value and wakes the readers.
func (s *Store) Put(v int) {
	s.mu.Lock()
	s.val, s.set = v, true
	s.mu.Unlock()
	s.ready.Broadcast()
}

// Get waits for a value and returns it.
func (s *Store) Get() int {
	s.ready.L.Lock()
	defer s.ready.L.Unlock()
	for !s.set {
		s.ready.Wait()
	}
	v := s.value()
	return v
}

// value returns the value.
func (s *Store) value() int {
	s.mu.RLock() // BUG: Get already holds a read lock, taken through the Cond
	defer s.mu.RUnlock()
	return s.val
}
