// Package fixed is the fixed variant of the nested-addall-deadlock kernel.
package fixed

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
	snap := o.Snapshot() // take o's lock alone, before l's
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, snap...)
}
