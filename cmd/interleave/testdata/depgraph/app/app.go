// Package app uses a go 1.12 module, a module with build-tagged files and
// a go.mod-less (+incompatible) module from the module proxy.
package app

import (
	"strconv"
	"sync"

	"example.com/oldmod"
	"example.com/tagged"
	cache "github.com/patrickmn/go-cache"
)

// Fill stores n values in a cache from n goroutines, passing them through
// a queue, and returns how many it found again.
func Fill(n int) int {
	c := cache.New(cache.NoExpiration, 0)
	q := tagged.New(n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c.Set(strconv.Itoa(i), i, cache.DefaultExpiration)
			q.Put(i)
		}(i)
	}
	wg.Wait()
	found := 0
	for i := 0; i < n; i++ {
		if _, ok := c.Get(strconv.Itoa(q.Get())); ok {
			found++
		}
	}
	return found
}

// Count adds n to a counter of the old module.
func Count(n int) int {
	var c oldmod.Counter
	c.Add(n)
	return c.Value()
}
