package buggy

import (
	"sync"
	"testing"
)

func TestRing(t *testing.T) {
	qs := []*Queue{{items: []int{1}, rank: 0}, {items: []int{2}, rank: 1}, {items: []int{3}, rank: 2}}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			Move(qs[i], qs[(i+1)%3])
		}(i)
	}
	wg.Wait()
	total := 0
	for _, q := range qs {
		for _, v := range q.items {
			total += v
		}
	}
	if total != 6 {
		t.Errorf("items sum to %d after the moves, want 6", total)
	}
}
