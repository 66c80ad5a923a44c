package fixed

import (
	"sync"
	"testing"
)

func TestUseFree(t *testing.T) {
	h := &Holder{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		h.Alloc()
		h.Use()
	}()
	go func() {
		defer wg.Done()
		h.Free()
	}()
	wg.Wait()
}
