// Package buggy is the buggy variant of the lock-order-cycle3 kernel.
package buggy

import "sync"

// Queue is a FIFO of ints guarded by a mutex.
type Queue struct {
	mu    sync.Mutex
	items []int
	rank  int // position in the ring
}

// Move takes the first item of src and appends it to dst, holding both
// queues' locks so the item is never seen in neither or both.
func Move(src, dst *Queue) {
	src.mu.Lock() // BUG: locks source first; a ring of moves forms a cycle
	defer src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	if len(src.items) == 0 {
		return
	}
	v := src.items[0]
	src.items = src.items[1:]
	dst.items = append(dst.items, v)
}
