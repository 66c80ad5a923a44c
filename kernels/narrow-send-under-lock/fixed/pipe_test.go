package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestPipe(t *testing.T) {
	p := &Pipe{c: make(chan int)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var warm atomic.Int64
		for i := 0; i < 40; i++ {
			warm.Add(1)
		}
		p.Produce(7)
	}()
	if v := p.Consume(); v != 7 {
		t.Errorf("got %d, want 7", v)
	}
	wg.Wait()
}
