// Package fixed is the fixed variant of the waitgroup-add-inside kernel.
package fixed

import (
	"sync"
	"sync/atomic"
)

// Sum adds 1..n in n goroutines.
func Sum(n int) int64 {
	var wg sync.WaitGroup
	var sum atomic.Int64
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sum.Add(int64(i))
		}(i)
	}
	wg.Wait()
	return sum.Load()
}
