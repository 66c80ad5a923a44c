// Package buggy is the buggy variant of the hapset-reload-window kernel.
package buggy

import (
	"sync"
	"sync/atomic"
)

// Config is a server's configuration.
type Config struct{ Limit int }

// Server serves requests under a configuration that can be reloaded.
type Server struct {
	cfg    atomic.Pointer[Config]
	mu     sync.Mutex
	served int
}

// Reload installs c.
func (s *Server) Reload(c *Config) {
	// BUG: clearing first opens a window in which a reader that saw the
	// old configuration finds none.
	s.cfg.Store(nil)
	s.cfg.Store(c)
}

// Limit returns the configured limit, 0 when there is no configuration.
func (s *Server) Limit() int {
	if s.cfg.Load() == nil {
		return 0
	}
	return s.cfg.Load().Limit // BUG: a second load, perhaps inside Reload's window
}

// Serve counts one request.
func (s *Server) Serve() {
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
}

// Served returns the requests served.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}
