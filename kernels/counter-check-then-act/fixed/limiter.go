// Package fixed is the fixed variant of the counter-check-then-act kernel.
package fixed

import "sync"

// Limiter admits at most max holders.
type Limiter struct {
	mu  sync.Mutex
	n   int
	max int
}

func (l *Limiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

func (l *Limiter) inc() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

// TryAcquire takes a place if one is free.
func (l *Limiter) TryAcquire() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n < l.max {
		l.n++
		return true
	}
	return false
}
