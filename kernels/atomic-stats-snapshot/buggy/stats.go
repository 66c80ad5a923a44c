// Package buggy is the buggy variant of the atomic-stats-snapshot kernel.
package buggy

import "sync/atomic"

// Stats counts requests; the handlers update it atomically.
type Stats struct {
	Hits   uint64
	Misses uint64
}

// Hit counts one hit.
func (s *Stats) Hit() { atomic.AddUint64(&s.Hits, 1) }

// Snapshot returns a copy of the counters.
func (s *Stats) Snapshot() Stats {
	return *s // BUG: a plain copy, unordered with the atomic adds
}
