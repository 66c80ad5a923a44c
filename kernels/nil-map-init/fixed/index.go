// Package fixed is the fixed variant of the nil-map-init kernel.
package fixed

import "sync"

// Index counts keys.
type Index struct {
	mu sync.Mutex
	m  map[string]int
}

// Init allocates the map.
func (x *Index) Init() {
	x.mu.Lock()
	if x.m == nil { // keep what an early Add stored
		x.m = map[string]int{}
	}
	x.mu.Unlock()
}

// Add counts key.
func (x *Index) Add(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.m == nil {
		x.m = map[string]int{}
	}
	x.m[key]++
}

// Count returns the count of key.
func (x *Index) Count(key string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.m[key]
}
