// Package buggy is the buggy variant of the atomic-pair-torn-read kernel.
package buggy

import (
	"errors"
	"sync/atomic"
)

// ErrTorn reports that no consistent value could be read.
var ErrTorn = errors.New("torn read")

// Pair holds a value in two atomic words that must agree.
type Pair struct {
	a, b atomic.Int64
}

// Store publishes v in both words.
func (p *Pair) Store(v int64) {
	p.a.Store(v)
	p.b.Store(v)
}

// Load returns the value, retrying a torn read up to eight times.
func (p *Pair) Load() (int64, error) {
	for attempt := 0; attempt < 8; attempt++ {
		// BUG: each word is atomic, the pair is not; eight retries are
		// not a guarantee against a writer that keeps storing in step.
		a := p.a.Load()
		b := p.b.Load()
		if a == b {
			return a, nil
		}
	}
	return 0, ErrTorn
}
