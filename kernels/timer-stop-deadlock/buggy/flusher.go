// Package buggy is the buggy variant of the timer-stop-deadlock kernel.
package buggy

import (
	"sync"
	"time"
)

// Flusher flushes once after a delay unless stopped first.
type Flusher struct {
	mu      sync.Mutex
	t       *time.Timer
	fired   chan struct{}
	flushes int
}

// NewFlusher schedules a flush after d.
func NewFlusher(d time.Duration) *Flusher {
	f := &Flusher{fired: make(chan struct{})}
	f.t = time.AfterFunc(d, f.flush)
	return f
}

func (f *Flusher) flush() {
	f.mu.Lock()
	f.flushes++
	f.mu.Unlock()
	close(f.fired)
}

// Stop cancels the flush or, if it has already started, waits for it to
// finish. It returns the number of flushes that ran.
func (f *Flusher) Stop() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.t.Stop() {
		// BUG: waits for the callback while holding the mutex the
		// callback needs.
		<-f.fired
	}
	return f.flushes
}
