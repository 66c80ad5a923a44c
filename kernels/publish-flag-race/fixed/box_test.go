package fixed

import (
	"sync"
	"testing"
)

func TestPublish(t *testing.T) {
	b := &Box{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Publish([]int{1, 2, 3})
	}()
	if d, ok := b.Get(); ok && len(d) != 3 {
		t.Errorf("published data has %d items, want 3", len(d))
	}
	wg.Wait()
}
