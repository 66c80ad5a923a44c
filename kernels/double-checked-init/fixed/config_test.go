package fixed

import (
	"sync"
	"testing"
)

func TestGet(t *testing.T) {
	c := &Config{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := c.Get("mode"); v != "fast" {
				t.Errorf("Get(mode) = %q, want fast", v)
			}
		}()
	}
	wg.Wait()
}
