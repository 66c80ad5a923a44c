package fixed

import (
	"sync"
	"testing"
)

func TestHits(t *testing.T) {
	s := &Stats{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Hit()
		}()
	}
	wg.Wait()
	if n := s.Hits(); n != 2 {
		t.Errorf("Hits = %d, want 2", n)
	}
}
