// Package fixed is the fixed variant of the hapset-reload-window kernel.
package fixed

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
	s.cfg.Store(nil)
	s.cfg.Store(c)
}

// Limit returns the configured limit, 0 when there is no configuration.
func (s *Server) Limit() int {
	c := s.cfg.Load() // one load: checked and used
	if c == nil {
		return 0
	}
	return c.Limit
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
