// Package fixed is the fixed variant of the parallel-subtest-memo kernel.
package fixed

import "sync"

// Resolver memoizes the cost of names.
type Resolver struct {
	mu   sync.Mutex
	memo map[string]int
}

// NewResolver returns an empty resolver.
func NewResolver() *Resolver { return &Resolver{memo: map[string]int{}} }

// Lookup returns the cost of name, computing it once.
func (r *Resolver) Lookup(name string) int {
	r.mu.Lock()
	v, ok := r.memo[name]
	r.mu.Unlock()
	if ok {
		return v
	}
	v = len(name) * 10
	r.mu.Lock()
	r.memo[name] = v
	r.mu.Unlock()
	return v
}
