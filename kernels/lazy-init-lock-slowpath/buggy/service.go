// Package buggy is the buggy variant of the lazy-init-lock-slowpath kernel.
package buggy

import "sync"

// Config is a loaded configuration.
type Config struct{ Name string }

func load() *Config { return &Config{Name: "default"} }

// Service loads its configuration lazily.
type Service struct {
	mu  sync.Mutex // unused: the bug
	cfg *Config
}

// Config returns the configuration, loading it on first use.
func (s *Service) Config() *Config {
	if s.cfg == nil { // BUG: unsynchronized check and store
		s.cfg = load()
	}
	return s.cfg
}
