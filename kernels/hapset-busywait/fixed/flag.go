// Package fixed is the fixed variant of the hapset-busywait kernel.
package fixed

import "sync"

// Flag is set by Notify and awaited by Await.
type Flag struct {
	mu   sync.Mutex
	cond *sync.Cond
	x    int
}

// NewFlag returns an unset flag.
func NewFlag() *Flag {
	f := &Flag{}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Notify sets the flag; it is remembered even if nobody waits yet.
func (f *Flag) Notify() {
	f.mu.Lock()
	f.x = 1
	f.cond.Broadcast()
	f.mu.Unlock()
}

// Await blocks until the flag is set.
func (f *Flag) Await() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.x == 0 {
		f.cond.Wait()
	}
	return true
}
