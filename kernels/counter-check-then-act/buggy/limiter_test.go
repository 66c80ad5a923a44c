package buggy

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestLimit(t *testing.T) {
	l := &Limiter{max: 1}
	var admitted atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if l.TryAcquire() {
				admitted.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := admitted.Load(); n != 1 {
		t.Errorf("%d goroutines admitted by a limiter of 1", n)
	}
}
