package buggy

import (
	"sync"
	"testing"
)

func TestGet(t *testing.T) {
	p := NewPool()
	var got [2]*Conn
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got[i] = p.Get("db")
		}(i)
	}
	wg.Wait()
	if got[0] != got[1] {
		t.Errorf("two different connections for one address")
	}
	if n := p.dials.Load(); n != 1 {
		t.Errorf("dialed %d times, want 1", n)
	}
}
