package fixed

import (
	"sync"
	"testing"
)

func TestAddAll(t *testing.T) {
	a := &List{items: []int{1}}
	b := &List{items: []int{2}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.AddAll(b)
	}()
	go func() {
		defer wg.Done()
		b.AddAll(a)
	}()
	wg.Wait()
	if n := a.Len() + b.Len(); n != 4 && n != 5 {
		t.Errorf("lists hold %d items, want 4 or 5", n)
	}
}
