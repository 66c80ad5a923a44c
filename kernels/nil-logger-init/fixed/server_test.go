package fixed

import (
	"sync"
	"testing"
)

func TestServe(t *testing.T) {
	s := &Server{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.Setup()
	}()
	go func() {
		defer wg.Done()
		s.Serve("GET /")
	}()
	wg.Wait()
	if n := s.logger().Len(); n != 1 {
		t.Errorf("%d lines logged, want 1", n)
	}
}
