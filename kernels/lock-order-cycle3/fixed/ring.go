// Package fixed is the fixed variant of the lock-order-cycle3 kernel.
package fixed

import "sync"

// Queue is a FIFO of ints guarded by a mutex.
type Queue struct {
	mu    sync.Mutex
	items []int
	rank  int
}

// Move takes the first item of src and appends it to dst, holding both
// queues' locks so the item is never seen in neither or both. Locks are
// taken in rank order, which admits no cycle.
func Move(src, dst *Queue) {
	first, second := src, dst
	if second.rank < first.rank {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if len(src.items) == 0 {
		return
	}
	v := src.items[0]
	src.items = src.items[1:]
	dst.items = append(dst.items, v)
}
