package buggy

import (
	"sync"
	"testing"
)

func TestCacheGet(t *testing.T) {
	c := &Cache{}
	c.Set(42)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Invalidate()
	}()
	if v := c.Get(); v != 42 {
		t.Errorf("Get() = %d, want 42", v)
	}
	wg.Wait()
}
