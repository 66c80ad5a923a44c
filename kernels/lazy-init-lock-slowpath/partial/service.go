// Package partial is the partial variant of the lazy-init-lock-slowpath kernel.
package partial

import "sync"

// Config is a loaded configuration.
type Config struct{ Name string }

func load() *Config { return &Config{Name: "default"} }

// Service loads its configuration lazily.
type Service struct {
	mu  sync.Mutex
	cfg *Config
}

// loadLocked loads the configuration under the mutex, once.
func (s *Service) loadLocked() *Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg == nil {
		s.cfg = load()
	}
	return s.cfg
}

// Config returns the configuration, loading it on first use.
func (s *Service) Config() *Config {
	// BUG: the fast path still reads s.cfg without the mutex.
	if c := s.cfg; c != nil {
		return c
	}
	return s.loadLocked()
}
