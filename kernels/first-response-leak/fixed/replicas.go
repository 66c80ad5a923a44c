// Package fixed is the fixed variant of the first-response-leak kernel.
package fixed

import "sync"

// First queries every replica concurrently and returns the first answer.
// Every replica can deliver into the buffer, and First waits for all of
// them so none is left behind.
func First(replicas []func() int) int {
	c := make(chan int, len(replicas))
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Add(1)
		go func(r func() int) {
			defer wg.Done()
			c <- r()
		}(r)
	}
	v := <-c
	wg.Wait()
	return v
}
