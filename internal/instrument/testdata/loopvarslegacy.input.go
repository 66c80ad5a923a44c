//go:build go1.21

// Before Go 1.22 a loop's variables are shared by all its iterations.
package loopvarslegacy

import "sync"

func Capture(q chan int) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ { // the post statement writes the one i
		wg.Add(1)
		go func() { defer wg.Done(); q <- i }()
	}
	wg.Wait()
}

// Every iteration writes the range variables, which the goroutines read.
func Ranges(xs []int, arr [2]string, m map[string]int, s string, c chan int, done chan bool) {
	for _, v := range xs {
		go func() { _ = v; done <- true }()
	}
	for i, v := range arr {
		go func() { _, _ = i, v; done <- true }()
	}
	for k, v := range m {
		go func() { _, _ = k, v; done <- true }()
	}
	for i, r := range s {
		go func() { _, _ = i, r; done <- true }()
	}
	for v := range c {
		go func() { _ = v; done <- true }()
	}
	for i := range xs { // i is not captured: not shared
		_ = i
	}
}
