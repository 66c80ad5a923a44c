package partial

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	c := &Counter{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if v := c.Value(); v != 2 {
		t.Errorf("count = %d, want 2", v)
	}
}
