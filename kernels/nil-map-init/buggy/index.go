// Package buggy is the buggy variant of the nil-map-init kernel.
package buggy

import "sync"

// Index counts keys.
type Index struct {
	mu sync.Mutex
	m  map[string]int
}

// Init allocates the map.
func (x *Index) Init() {
	x.mu.Lock()
	x.m = map[string]int{}
	x.mu.Unlock()
}

// Add counts key.
func (x *Index) Add(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.m[key]++ // BUG: panics on a nil map if Init has not run yet
}

// Count returns the count of key.
func (x *Index) Count(key string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.m[key]
}
