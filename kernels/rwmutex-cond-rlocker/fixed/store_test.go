package fixed

import (
	"sync"
	"testing"
)

func TestGetWhilePut(t *testing.T) {
	s := NewStore()
	s.Put(1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Put(2)
	}()
	if v := s.Get(); v != 1 && v != 2 {
		t.Errorf("Get() = %d, want 1 or 2", v)
	}
	wg.Wait()
}
