// Package fixed is the fixed variant of the start-before-install kernel.
package fixed

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

func (s *Server) install(h func() int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

// Start starts two servers with handler h and returns their results.
func Start(s *Server, h func() int) <-chan int {
	done := make(chan int, 2)
	s.install(h)
	go s.serve(done)
	go s.serve(done)
	return done
}
