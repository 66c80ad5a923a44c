package partial

import (
	"sync"
	"testing"
)

func TestStats(t *testing.T) {
	s := &Stats{}
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			s.Add(v)
		}(i)
	}
	wg.Wait()
	if n, sum := s.Snapshot(); n != 2 || sum != 3 {
		t.Errorf("count %d, sum %d; want 2, 3", n, sum)
	}
}
