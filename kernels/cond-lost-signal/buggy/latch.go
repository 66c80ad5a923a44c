// Package buggy is the buggy variant of the cond-lost-signal kernel.
package buggy

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

func (l *Latch) isOpen() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Wait blocks until the latch is open.
func (l *Latch) Wait() {
	if l.isOpen() {
		return
	}
	// BUG: the predicate was checked under a lock that has been released
	// and is not checked again: an Open in between is a lost wake-up.
	l.mu.Lock()
	l.cond.Wait()
	l.mu.Unlock()
}
