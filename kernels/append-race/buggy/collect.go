// Package buggy is the buggy variant of the append-race kernel.
package buggy

import "sync"

// Collect runs every producer concurrently and gathers their results.
func Collect(producers []func() int) []int {
	var out []int
	var wg sync.WaitGroup
	for _, p := range producers {
		wg.Add(1)
		go func(p func() int) {
			defer wg.Done()
			out = append(out, p()) // BUG: unsynchronized append to a shared slice
		}(p)
	}
	wg.Wait()
	return out
}
