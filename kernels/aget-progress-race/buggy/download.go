// Package buggy is the buggy variant of the aget-progress-race kernel.
package buggy

import "sync"

// Download tracks the bytes written by several segment workers.
type Download struct {
	mu       sync.Mutex
	bwritten int
}

// Write records n more bytes written by a worker.
func (d *Download) Write(n int) {
	d.mu.Lock()
	d.bwritten += n
	d.mu.Unlock()
}

// Progress returns the bytes written so far, for the progress bar.
func (d *Download) Progress() int {
	return d.bwritten // BUG: read without the lock the writers hold
}

// Total returns the final byte count.
func (d *Download) Total() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bwritten
}
