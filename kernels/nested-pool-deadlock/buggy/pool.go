// Package buggy is the buggy variant of the nested-pool-deadlock kernel.
package buggy

import "sync/atomic"

// Pool bounds the number of concurrently running functions.
type Pool struct {
	slots chan struct{}
}

// NewPool returns a pool with n slots.
func NewPool(n int) *Pool { return &Pool{slots: make(chan struct{}, n)} }

// Do runs f in a slot of the pool, waiting for a free slot.
func (p *Pool) Do(f func()) {
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	f()
}

// Job runs a two-step job on the pool; done counts completed steps.
func (p *Pool) Job(done *atomic.Int64) {
	p.Do(func() {
		done.Add(1) // step 1
		// BUG: the second step asks the pool for another slot while
		// holding one; when every slot is held by a first step, no
		// second step can ever start.
		p.Do(func() { done.Add(1) })
	})
}
