// Package buggy is the buggy variant of the hapset-null-check kernel.
package buggy

import "sync"

// Buf is the shared object.
type Buf struct{ n int }

// Holder holds a pointer that one goroutine uses and another frees.
type Holder struct {
	mu sync.Mutex
	p  *Buf
}

// Alloc sets p to a fresh Buf.
func (h *Holder) Alloc() {
	h.mu.Lock()
	h.p = &Buf{}
	h.mu.Unlock()
}

// Use writes through p if it is set.
func (h *Holder) Use() {
	h.mu.Lock()
	ok := h.p != nil // e2: check
	h.mu.Unlock()
	if ok {
		// BUG: check and use are separate critical sections; a Free in
		// between makes p nil here.
		h.mu.Lock()
		h.p.n++ // e3: use
		h.mu.Unlock()
	}
}

// Free clears p.
func (h *Holder) Free() {
	h.mu.Lock()
	h.p = nil // e4
	h.mu.Unlock()
}
