// Package partial is the partial variant of the lock-order-helper kernel.
package partial

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
	// BUG: the fix missed this path: still argument order.
	src.mu.Lock()
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	dst.items += src.items
	src.items = 0
}
