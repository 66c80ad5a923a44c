// Package fixed is the fixed variant of the waitgroup-add-race kernel.
package fixed

import "sync"

// Buffers flushes each of its buffers in its own goroutine.
type Buffers struct {
	mu      sync.Mutex
	flushed int
}

func (b *Buffers) flushOne() {
	b.mu.Lock()
	b.flushed++
	b.mu.Unlock()
}

// FlushAll flushes n buffers concurrently and waits for them.
func (b *Buffers) FlushAll(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.flushOne()
		}()
	}
	wg.Wait()
}
