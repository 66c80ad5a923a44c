// Package fixed is the fixed variant of the hapset-null-check kernel.
package fixed

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

// Use writes through p if it is set; check and use are one critical
// section.
func (h *Holder) Use() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.p != nil {
		h.p.n++
	}
}

// Free clears p.
func (h *Holder) Free() {
	h.mu.Lock()
	h.p = nil
	h.mu.Unlock()
}
