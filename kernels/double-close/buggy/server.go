// Package buggy is the buggy variant of the double-close kernel.
package buggy

import "sync"

// Server runs until stopped or failed.
type Server struct {
	quit chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

// New returns a running server.
func New() *Server { return &Server{quit: make(chan struct{})} }

// Stop shuts the server down; it may be called more than once.
func (s *Server) Stop() {
	select { // BUG: check-then-close is not atomic: two stoppers both see open
	case <-s.quit:
	default:
		close(s.quit)
	}
}

// Fail shuts the server down because of err.
func (s *Server) Fail(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	select { // BUG: same check-then-close on the failure path
	case <-s.quit:
	default:
		close(s.quit)
	}
}

// Done is closed when the server has shut down.
func (s *Server) Done() <-chan struct{} { return s.quit }
