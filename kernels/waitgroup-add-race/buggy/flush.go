// Package buggy is the buggy variant of the waitgroup-add-race kernel.
package buggy

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
		go func() {
			track(&wg) // BUG: Add inside the goroutine, unordered with Wait
			defer wg.Done()
			b.flushOne()
		}()
	}
	wg.Wait()
}

// track registers one more flush. The Add sits in a helper, as it often
// does in real code, which is why go vet's direct-call check misses it.
func track(wg *sync.WaitGroup) { wg.Add(1) }
