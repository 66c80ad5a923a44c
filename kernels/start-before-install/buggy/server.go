// Package buggy is the buggy variant of the start-before-install kernel.
package buggy

import "sync"

// Server serves requests with a handler installed at start.
type Server struct {
	mu      sync.Mutex
	handler func() int
}

func (s *Server) serve(done chan<- int) {
	s.mu.Lock()
	h := s.handler
	s.mu.Unlock()
	done <- h() // a nil handler panics
}

// Start starts two servers with handler h and returns their results.
func Start(s *Server, h func() int) <-chan int {
	done := make(chan int, 2)
	go s.serve(done)
	go s.serve(done)
	// BUG: installed after the servers started.
	s.mu.Lock()
	s.handler = h
	s.mu.Unlock()
	return done
}
