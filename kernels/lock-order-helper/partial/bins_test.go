package partial

import (
	"sync"
	"testing"
)

func TestMoveAndMerge(t *testing.T) {
	a, b := NewBin(1, 5), NewBin(2, 5)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Move(a, b, 1)
	}()
	go func() {
		defer wg.Done()
		Merge(b, a)
	}()
	wg.Wait()
	if a.Count()+b.Count() != 10 {
		t.Errorf("items lost: %d + %d", a.Count(), b.Count())
	}
}
