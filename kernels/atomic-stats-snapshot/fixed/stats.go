// Package fixed is the fixed variant of the atomic-stats-snapshot kernel.
package fixed

import "sync/atomic"

// Stats counts requests; the handlers update it atomically.
type Stats struct {
	Hits   uint64
	Misses uint64
}

// Hit counts one hit.
func (s *Stats) Hit() { atomic.AddUint64(&s.Hits, 1) }

// Snapshot returns a copy of the counters, each loaded atomically.
func (s *Stats) Snapshot() Stats {
	return Stats{Hits: atomic.LoadUint64(&s.Hits), Misses: atomic.LoadUint64(&s.Misses)}
}
