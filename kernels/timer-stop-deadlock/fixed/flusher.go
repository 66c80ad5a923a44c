// Package fixed is the fixed variant of the timer-stop-deadlock kernel.
package fixed

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
	if !f.t.Stop() {
		<-f.fired // the callback has started: wait for it, holding nothing
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.flushes
}
