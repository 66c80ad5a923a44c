package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestPop(t *testing.T) {
	v := &Vec{xs: []int{7}}
	var popped atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok := Pop(v); ok {
				popped.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := popped.Load(); n != 1 {
		t.Errorf("popped %d elements from a vector of 1", n)
	}
}
