package buggy

import (
	"sync"
	"testing"
)

func TestDinner(t *testing.T) {
	const n = 5
	tb := NewTable(n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tb.Eat(i)
		}(i)
	}
	wg.Wait()
	for i, m := range tb.meals {
		if m != 1 {
			t.Errorf("philosopher %d ate %d times, want 1", i, m)
		}
	}
}
