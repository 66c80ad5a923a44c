package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestGetOrCreate(t *testing.T) {
	c := &Cache{m: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.GetOrCreate("k", func() int { return 1 })
	}()
	go func() {
		defer wg.Done()
		var warm atomic.Int64
		for i := 0; i < 40; i++ {
			warm.Add(1)
		}
		c.GetOrCreate("k", func() int { return 2 })
	}()
	wg.Wait()
	if n := c.created.Load(); n != 1 {
		t.Errorf("value created %d times, want once", n)
	}
}
