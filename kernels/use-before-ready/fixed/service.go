// Package fixed is the fixed variant of the use-before-ready kernel.
package fixed

import "sync"

// Service admits requests up to a limit loaded at start-up.
type Service struct {
	mu    sync.Mutex
	limit int
	ready chan struct{}
	wg    sync.WaitGroup
}

// Start initializes the service in the background.
func Start() *Service {
	s := &Service{ready: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		limit := loadLimit()
		s.mu.Lock()
		s.limit = limit
		s.mu.Unlock()
		close(s.ready)
	}()
	return s
}

func loadLimit() int { return 10 }

// Handle reports whether a request of size n is admitted.
func (s *Service) Handle(n int) bool {
	<-s.ready // wait for the initialization to be done
	s.mu.Lock()
	defer s.mu.Unlock()
	return n <= s.limit
}

// Close waits for the background initialization.
func (s *Service) Close() { s.wg.Wait() }
