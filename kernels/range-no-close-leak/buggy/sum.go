// Package buggy is the buggy variant of the range-no-close-leak kernel.
package buggy

import "sync/atomic"

// Sum feeds items to a consumer goroutine and returns their sum, or -1 if
// stop was set before all items were fed.
func Sum(items []int, stop *atomic.Bool) int {
	ch := make(chan int)
	out := make(chan int, 1)
	go func() {
		s := 0
		for v := range ch {
			s += v
		}
		out <- s
	}()
	for _, v := range items {
		if stop.Load() {
			return -1 // BUG: returns without close(ch): the consumer ranges forever
		}
		ch <- v
	}
	close(ch)
	return <-out
}
