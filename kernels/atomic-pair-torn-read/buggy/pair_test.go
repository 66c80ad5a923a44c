package buggy

import (
	"sync"
	"testing"
)

func TestLoadUnderStores(t *testing.T) {
	p := &Pair{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := int64(1); v <= 8; v++ {
			p.Store(v)
		}
	}()
	v, err := p.Load()
	if err != nil {
		t.Errorf("Load: %v", err)
	} else if v < 0 || v > 8 {
		t.Errorf("Load = %d, want a stored value", v)
	}
	wg.Wait()
}
