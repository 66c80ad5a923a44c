package buggy

import (
	"sync"
	"testing"
)

func TestAwait(t *testing.T) {
	f := NewFlag()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.Notify()
	}()
	if !f.Await() {
		t.Errorf("Await gave up although Notify ran")
	}
	wg.Wait()
}
