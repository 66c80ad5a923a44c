// Package fixed is the fixed variant of the hapset-late-lock-order kernel.
package fixed

import "sync"

// Store keeps a ledger and an index of it.
type Store struct {
	ledgerMu, indexMu sync.Mutex
	ledger, index     int

	mu     sync.Mutex
	served int
}

// Audit checks the index against the ledger.
func (s *Store) Audit() bool {
	s.ledgerMu.Lock()
	defer s.ledgerMu.Unlock()
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	return s.index <= s.ledger
}

// Compact rebuilds the index.
func (s *Store) Compact() {
	s.ledgerMu.Lock() // the ledger first, as Audit does
	defer s.ledgerMu.Unlock()
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	s.index = s.ledger
}

// Serve counts one request.
func (s *Store) Serve() {
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
}
