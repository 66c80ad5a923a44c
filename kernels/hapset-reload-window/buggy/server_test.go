package buggy

import (
	"sync"
	"testing"
)

func TestLimitDuringReload(t *testing.T) {
	s := &Server{}
	s.Reload(&Config{Limit: 10})
	var wg sync.WaitGroup
	wg.Add(6)
	go func() {
		defer wg.Done()
		if l := s.Limit(); l != 10 && l != 20 && l != 0 {
			t.Errorf("Limit = %d, want 10 or 20", l)
		}
	}()
	for w := 0; w < 4; w++ {
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				s.Serve()
			}
		}()
	}
	go func() {
		defer wg.Done()
		for i := 0; i < 8; i++ {
			s.Serve()
		}
		s.Reload(&Config{Limit: 20})
	}()
	wg.Wait()
	if n := s.Served(); n != 24 {
		t.Errorf("served %d requests, want 24", n)
	}
}
