// Package buggy is the buggy variant of the cyclic-barrier kernel.
package buggy

import "sync"

// Barrier is a reusable barrier for n goroutines.
type Barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	gen   int
}

// NewBarrier returns a barrier for n goroutines.
func NewBarrier(n int) *Barrier {
	b := &Barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Await blocks until n goroutines have called Await in this round.
func (b *Barrier) Await() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.count++
	if b.count == b.n {
		b.count = 0
		b.cond.Broadcast()
		return
	}
	// BUG: "count was reset" is not the same as "my round is over": a
	// fast goroutine already in the next round makes count non-zero
	// again before a slow waiter rechecks, and that waiter sleeps on.
	for b.count != 0 {
		b.cond.Wait()
	}
}
