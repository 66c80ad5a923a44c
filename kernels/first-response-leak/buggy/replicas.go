// Package buggy is the buggy variant of the first-response-leak kernel.
package buggy

// First queries every replica concurrently and returns the first answer.
func First(replicas []func() int) int {
	c := make(chan int) // BUG: the losers block forever on their send
	for _, r := range replicas {
		go func(r func() int) { c <- r() }(r)
	}
	return <-c
}
