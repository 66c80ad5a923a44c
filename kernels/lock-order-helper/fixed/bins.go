// Package fixed is the fixed variant of the lock-order-helper kernel.
package fixed

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

// lockPair locks x and y in id order and returns the function that
// unlocks them.
func lockPair(x, y *Bin) func() {
	if y.id < x.id {
		x, y = y, x
	}
	x.mu.Lock()
	y.mu.Lock()
	return func() {
		y.mu.Unlock()
		x.mu.Unlock()
	}
}

// Move moves n items from src to dst.
func Move(src, dst *Bin, n int) {
	defer lockPair(src, dst)()
	src.items -= n
	dst.items += n
}

// Merge moves every item of src into dst.
func Merge(src, dst *Bin) {
	defer lockPair(src, dst)()
	dst.items += src.items
	src.items = 0
}
