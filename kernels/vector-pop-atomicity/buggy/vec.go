// Package buggy is the buggy variant of the vector-pop-atomicity kernel.
package buggy

import "sync"

// Vec is a synchronized vector: each method is atomic.
type Vec struct {
	mu sync.Mutex
	xs []int
}

// Len returns the length.
func (v *Vec) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.xs)
}

// RemoveLast removes and returns the last element; it panics on an empty
// vector.
func (v *Vec) RemoveLast() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	x := v.xs[len(v.xs)-1]
	v.xs = v.xs[:len(v.xs)-1]
	return x
}

// Pop removes and returns the last element if there is one.
func Pop(v *Vec) (int, bool) {
	if v.Len() > 0 { // BUG: Len and RemoveLast are each atomic, the pair is not
		return v.RemoveLast(), true
	}
	return 0, false
}
