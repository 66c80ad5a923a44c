package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestJobs(t *testing.T) {
	const workers, slots = 8, 4
	p := NewPool(slots)
	var done atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Job(&done)
		}()
	}
	wg.Wait()
	if n := done.Load(); n != 2*workers {
		t.Errorf("%d steps done, want %d", n, 2*workers)
	}
}
