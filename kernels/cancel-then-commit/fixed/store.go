// Package fixed is the fixed variant of the cancel-then-commit kernel.
package fixed

import (
	"context"
	"sync"
)

// Store is a synchronized map.
type Store struct {
	mu sync.Mutex
	m  map[string]int
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{m: map[string]int{}} }

// Put sets k to v.
func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.m[k] = v
	s.mu.Unlock()
}

// Delete removes k.
func (s *Store) Delete(k string) {
	s.mu.Lock()
	delete(s.m, k)
	s.mu.Unlock()
}

// Has reports whether k is set.
func (s *Store) Has(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[k]
	return ok
}

// Worker writes k = v unless ctx has been canceled.
func Worker(ctx context.Context, s *Store, k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil { // checked in the same critical section as the write
		return
	}
	s.m[k] = v
}
