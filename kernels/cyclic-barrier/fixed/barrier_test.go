package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestRounds(t *testing.T) {
	const n, rounds = 8, 2
	b := NewBarrier(n)
	var arrived [rounds]atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				arrived[r].Add(1)
				b.Await()
				if got := arrived[r].Load(); got != n {
					t.Errorf("round %d: passed the barrier with %d of %d arrived", r, got, n)
				}
			}
		}()
	}
	wg.Wait()
}
