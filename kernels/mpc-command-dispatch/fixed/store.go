// Package fixed is the fixed variant of the mpc-command-dispatch kernel.
package fixed

import "sync"

// Store is the counter of a small text-protocol server: clients send
// commands ("get", "incr", "reset"), and every increment applied must
// show in the value.
type Store struct {
	mu    sync.Mutex
	value int
	incrs int // increments applied since the last reset
}

// get returns the value.
func (s *Store) get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value
}

// Exec runs one command and reports whether it knew it.
func (s *Store) Exec(cmd string) bool {
	switch cmd {
	case "get", "ping":
		s.get()
	case "incr":
		// The read and the write are one critical section.
		s.mu.Lock()
		s.value = s.value + 1
		s.incrs++
		s.mu.Unlock()
	case "reset":
		s.mu.Lock()
		s.value = 0
		s.incrs = 0
		s.mu.Unlock()
	default:
		return false
	}
	return true
}

// Consistent reports whether every increment applied shows in the value.
func (s *Store) Consistent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value == s.incrs
}

// Run has two clients send cmd at once and reports whether the store is
// consistent afterwards.
func Run(cmd string) bool {
	s := &Store{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			s.Exec(cmd)
		}()
	}
	wg.Wait()
	return s.Consistent()
}
