package partial

import (
	"sync"
	"testing"
)

func TestCloseTwice(t *testing.T) {
	s := NewStream()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Close()
		}()
	}
	wg.Wait()
	if _, ok := <-s.Done(); ok {
		t.Error("done channel not closed")
	}
}
