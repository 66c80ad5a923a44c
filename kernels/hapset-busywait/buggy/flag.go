// Package buggy is the buggy variant of the hapset-busywait kernel.
package buggy

import "sync"

// Flag is set by Notify and awaited by Await.
type Flag struct {
	mu      sync.Mutex
	waiting bool
	x       int
}

// Notify sets the flag for a waiting goroutine.
func (f *Flag) Notify() {
	f.mu.Lock()
	if f.waiting { // BUG: a notification with no registered waiter is dropped
		f.x = 1
	}
	f.mu.Unlock()
}

// Await registers as a waiter and busy-waits under the lock until x is
// set: do { lock; tmp = x; unlock } while (tmp == 0).
func (f *Flag) Await() bool {
	f.mu.Lock()
	f.waiting = true
	f.mu.Unlock()
	for spins := 0; spins < 1<<23; spins++ { // bounded only so plain go test ends
		f.mu.Lock()
		tmp := f.x
		f.mu.Unlock()
		if tmp != 0 {
			return true
		}
	}
	return false
}

// NewFlag returns an unset flag.
func NewFlag() *Flag { return &Flag{} }
