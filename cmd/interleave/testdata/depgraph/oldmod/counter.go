// Package oldmod is a module written for go 1.12: its loop variables are
// shared by all iterations, and it synchronizes with a mutex and channels.
package oldmod

import "sync"

// Counter counts under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one, from n goroutines, and waits for them through a channel.
func (c *Counter) Add(n int) {
	done := make(chan bool)
	for i := 0; i < n; i++ {
		go func() {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
			done <- true
		}()
	}
	for i := 0; i < n; i++ {
		<-done
	}
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Captured returns what closures made in a loop see of the loop variable:
// [3 3 3] under go 1.12 semantics.
func Captured() []int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	out := make([]int, len(fs))
	var wg sync.WaitGroup
	for k, f := range fs {
		wg.Add(1)
		go func(k int, f func() int) {
			defer wg.Done()
			out[k] = f()
		}(k, f)
	}
	wg.Wait()
	return out
}
