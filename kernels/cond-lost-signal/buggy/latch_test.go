package buggy

import (
	"sync"
	"testing"
)

func TestLatch(t *testing.T) {
	l := NewLatch()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.Wait()
	}()
	l.Open()
	wg.Wait()
}
