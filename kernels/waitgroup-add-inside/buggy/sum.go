// Package buggy is the buggy variant of the waitgroup-add-inside kernel.
package buggy

import (
	"sync"
	"sync/atomic"
)

// Sum adds 1..n in n goroutines.
func Sum(n int) int64 {
	var wg sync.WaitGroup
	var sum atomic.Int64
	for i := 1; i <= n; i++ {
		go func(i int) {
			track(&wg) // BUG: Add inside the goroutine may run after Wait returned
			defer wg.Done()
			sum.Add(int64(i))
		}(i)
	}
	wg.Wait()
	return sum.Load()
}

// track registers one more task. Hiding the Add in a helper is how this bug
// usually looks in real code, and why go vet's waitgroup check misses it.
func track(wg *sync.WaitGroup) { wg.Add(1) }
