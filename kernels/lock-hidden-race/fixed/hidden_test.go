package fixed

import (
	"sync"
	"testing"
)

func TestHidden(t *testing.T) {
	s := &State{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Writer()
	}()
	if x := s.Reader(); x != 0 && x != 1 {
		t.Errorf("Reader = %d, want 0 or 1", x)
	}
	wg.Wait()
}
