// Package race holds a data race: Hits increments a shared counter from
// many goroutines without synchronization.
package race

import "sync"

// Counter counts hits.
type Counter struct {
	n int
}

// Hit records one hit. BUG: n is read and written without a lock.
func (c *Counter) Hit() { c.n++ }

// Value returns the number of hits.
func (c *Counter) Value() int { return c.n }

// HitConcurrently records n hits from n goroutines and waits for them.
func HitConcurrently(c *Counter, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Hit()
		}()
	}
	wg.Wait()
}
