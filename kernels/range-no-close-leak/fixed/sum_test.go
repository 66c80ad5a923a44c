package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestSum(t *testing.T) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		stop.Store(true)
	}()
	if s := Sum([]int{1, 2, 3}, &stop); s != 6 && s != -1 {
		t.Errorf("Sum = %d, want 6 or -1", s)
	}
	wg.Wait()
}
