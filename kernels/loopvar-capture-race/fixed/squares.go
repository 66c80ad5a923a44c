// Package fixed is the fixed variant of the loopvar-capture-race kernel.
package fixed

import "sync"

// Squares squares every element of xs concurrently.
func Squares(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	started := 0
	for i := 0; i < len(xs); i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = xs[i] * xs[i]
		}(i)
		started++
	}
	wg.Wait()
	if started != len(xs) {
		panic("unreachable")
	}
	return out
}
