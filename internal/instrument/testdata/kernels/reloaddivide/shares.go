// Package buggy is the buggy variant of the reload-divide-by-zero kernel.
package buggy

import "sync"

// Splitter divides work among a number of workers that a reload may
// change.
type Splitter struct {
	mu  sync.Mutex
	per int
}

// Reload sets the number of workers to workers - drained.
func (s *Splitter) Reload(workers, drained int) {
	s.mu.Lock()
	s.per = workers - drained
	s.mu.Unlock()
}

// Share returns each worker's share of total (0 with no workers).
func (s *Splitter) Share(total int) int {
	s.mu.Lock()
	d := s.per
	s.mu.Unlock()
	if d == 0 {
		return 0
	}
	// BUG: the divisor is read again after a Reload may have changed it.
	s.mu.Lock()
	defer s.mu.Unlock()
	return total / s.per
}

// Run reloads with the given input while a share is computed.
func Run(workers, drained int) int {
	s := &Splitter{per: 4}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Reload(workers, drained)
	}()
	share := s.Share(100)
	wg.Wait()
	return share
}
