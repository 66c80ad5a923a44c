package fixed

import (
	"sync"
	"testing"
)

func TestPoolClose(t *testing.T) {
	p := NewPool(2)
	var wg sync.WaitGroup
	wg.Add(1)
	p.Submit(wg.Done)
	wg.Wait()
	p.Close()
}
