// Package buggy is the buggy variant of the lock-order-helper kernel.
package buggy

import "sync"

// Bin holds a number of items.
type Bin struct {
	id    int
	mu    sync.Mutex
	items int
}

// NewBin returns a bin with n items.
func NewBin(id, n int) *Bin { return &Bin{id: id, items: n} }

// Count returns the items of b.
func (b *Bin) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.items
}

// Move moves n items from src to dst.
func Move(src, dst *Bin, n int) {
	src.mu.Lock() // BUG: argument order
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	src.items -= n
	dst.items += n
}

// Merge moves every item of src into dst.
func Merge(src, dst *Bin) {
	src.mu.Lock() // BUG: argument order
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	dst.items += src.items
	src.items = 0
}
