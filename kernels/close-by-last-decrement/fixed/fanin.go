// Package fixed is the fixed variant of the close-by-last-decrement kernel.
package fixed

import "sync/atomic"

// SumSquares squares 0..n-1 in n goroutines and sums the results; the
// last worker closes the results channel.
func SumSquares(n int) int {
	out := make(chan int, n)
	var pending atomic.Int32
	pending.Store(int32(n))
	for i := 0; i < n; i++ {
		go func(i int) {
			out <- i * i
			if pending.Add(-1) == 0 { // every send happened before the close
				close(out)
			}
		}(i)
	}
	sum := 0
	for v := range out {
		sum += v
	}
	return sum
}
