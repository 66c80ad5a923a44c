// Package buggy is the buggy variant of the rwmutex-recursive-rlock kernel.
package buggy

import "sync"

// Registry maps names to values and falls back to a default value.
type Registry struct {
	mu sync.RWMutex
	m  map[string]int
}

// NewRegistry returns a registry whose default value is def.
func NewRegistry(def int) *Registry {
	return &Registry{m: map[string]int{"default": def}}
}

// Register sets name to v.
func (r *Registry) Register(name string, v int) {
	r.mu.Lock()
	r.m[name] = v
	r.mu.Unlock()
}

// Lookup returns the value of name, or the default value.
func (r *Registry) Lookup(name string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if v, ok := r.m[name]; ok {
		return v
	}
	return r.defaultValue()
}

func (r *Registry) defaultValue() int {
	r.mu.RLock() // BUG: recursive read lock; blocks behind a waiting writer
	defer r.mu.RUnlock()
	return r.m["default"]
}
