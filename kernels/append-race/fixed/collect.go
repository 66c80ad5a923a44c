// Package fixed is the fixed variant of the append-race kernel.
package fixed

import "sync"

// Collect runs every producer concurrently and gathers their results.
func Collect(producers []func() int) []int {
	var mu sync.Mutex
	var out []int
	var wg sync.WaitGroup
	for _, p := range producers {
		wg.Add(1)
		go func(p func() int) {
			defer wg.Done()
			v := p()
			mu.Lock()
			out = append(out, v)
			mu.Unlock()
		}(p)
	}
	wg.Wait()
	return out
}
