// Package fixed is the fixed variant of the close-by-last-decrement kernel.
package fixed

import (
	"sync"
	"sync/atomic"
)

// SumSquares squares 0..n-1 in n goroutines and sums the results; the
// last worker closes the results channel, and the caller reads the results
// once every worker has returned.
func SumSquares(n int) int {
	out := make(chan int, n)
	var pending atomic.Int32
	pending.Store(int32(n))
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out <- i * i
			if pending.Add(-1) == 0 { // every send happened before the close
				close(out)
			}
		}(i)
	}
	wg.Wait()
	sum := 0
	for v := range out {
		sum += v
	}
	return sum
}
