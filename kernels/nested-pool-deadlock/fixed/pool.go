// Package fixed is the fixed variant of the nested-pool-deadlock kernel.
package fixed

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
		done.Add(1) // step 2 runs in the slot the job already holds
	})
}
