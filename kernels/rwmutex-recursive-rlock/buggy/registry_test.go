package buggy

import (
	"sync"
	"testing"
)

func TestLookupDefault(t *testing.T) {
	r := NewRegistry(7)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.Register("a", 1)
	}()
	if v := r.Lookup("b"); v != 7 {
		t.Errorf("Lookup(b) = %d, want the default 7", v)
	}
	wg.Wait()
}
