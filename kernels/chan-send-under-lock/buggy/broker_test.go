package buggy

import (
	"sync"
	"testing"
)

func TestPublish(t *testing.T) {
	b := &Broker{}
	s := b.Subscribe()
	got := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = <-s.C()
		b.Unsubscribe(s)
	}()
	for v := 1; v <= 3; v++ {
		b.Publish(v)
	}
	wg.Wait()
	if got != 1 {
		t.Errorf("subscriber got %d, want the first message 1", got)
	}
}
