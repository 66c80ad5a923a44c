// Package fixed is the fixed variant of the range-no-close-leak kernel.
package fixed

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
			close(ch)
			<-out // let the consumer finish
			return -1
		}
		ch <- v
	}
	close(ch)
	return <-out
}
