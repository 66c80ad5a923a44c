// Package fixed is the fixed variant of the lazy-init-lock-slowpath kernel.
package fixed

import "sync"

// Config is a loaded configuration.
type Config struct{ Name string }

func load() *Config { return &Config{Name: "default"} }

// Service loads its configuration lazily.
type Service struct {
	once sync.Once
	cfg  *Config
}

// Config returns the configuration, loading it on first use.
func (s *Service) Config() *Config {
	s.once.Do(func() { s.cfg = load() })
	return s.cfg
}
