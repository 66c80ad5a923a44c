// Package buggy is the buggy variant of the nested-addall-deadlock kernel.
package buggy

import "sync"

// List is a synchronized list: every method is atomic on its own.
type List struct {
	mu    sync.Mutex
	items []int
}

// Snapshot returns a copy of the items.
func (l *List) Snapshot() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.items...)
}

// Len returns the number of items.
func (l *List) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// AddAll appends every item of o to l.
func (l *List) AddAll(o *List) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// BUG: o.Snapshot locks o while l is held; a.AddAll(b) against
	// b.AddAll(a) is an ABBA deadlock through the call chain.
	l.items = append(l.items, o.Snapshot()...)
}
