// Package fixed is the fixed variant of the aget-progress-race kernel.
package fixed

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
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bwritten
}

// Total returns the final byte count.
func (d *Download) Total() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bwritten
}
