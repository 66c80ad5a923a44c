// Package buggy is the buggy variant of the close-by-last-decrement kernel.
package buggy

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
			// BUG: decrements before sending; the last decrementer closes out
			// while another worker may still be between its decrement and its
			// send.
			last := pending.Add(-1) == 0
			out <- i * i
			if last {
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
