// Package fixed is the fixed variant of the atomic-pair-torn-read kernel.
package fixed

import (
	"errors"
	"sync/atomic"
)

// ErrTorn reports that no consistent value could be read.
var ErrTorn = errors.New("torn read")

type pair struct{ a, b int64 }

// Pair holds a value in two words that must agree, published together
// through one atomic pointer.
type Pair struct {
	p atomic.Pointer[pair]
}

// Store publishes v in both words.
func (p *Pair) Store(v int64) {
	p.p.Store(&pair{a: v, b: v})
}

// Load returns the value.
func (p *Pair) Load() (int64, error) {
	x := p.p.Load()
	if x == nil {
		return 0, nil
	}
	if x.a != x.b {
		return 0, ErrTorn
	}
	return x.a, nil
}
