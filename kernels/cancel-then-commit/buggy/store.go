// Package buggy is the buggy variant of the cancel-then-commit kernel.
package buggy

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
	if ctx.Err() != nil {
		return
	}
	// BUG: the caller may cancel and roll back between the check above
	// and the write below; the write then survives the rollback.
	s.Put(k, v)
}
