package fixed

import (
	"sync"
	"testing"
)

func TestAdd(t *testing.T) {
	x := &Index{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x.Init()
	}()
	go func() {
		defer wg.Done()
		x.Add("a")
	}()
	wg.Wait()
	if n := x.Count("a"); n != 1 {
		t.Errorf("Count(a) = %d, want 1", n)
	}
}
