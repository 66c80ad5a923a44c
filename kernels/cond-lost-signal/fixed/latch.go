// Package fixed is the fixed variant of the cond-lost-signal kernel.
package fixed

import "sync"

// Latch lets goroutines wait until it is opened.
type Latch struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewLatch returns a closed latch.
func NewLatch() *Latch {
	l := &Latch{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Open opens the latch and wakes every waiter.
func (l *Latch) Open() {
	l.mu.Lock()
	l.open = true
	l.cond.Broadcast()
	l.mu.Unlock()
}

// Wait blocks until the latch is open.
func (l *Latch) Wait() {
	l.mu.Lock()
	for !l.open {
		l.cond.Wait()
	}
	l.mu.Unlock()
}
