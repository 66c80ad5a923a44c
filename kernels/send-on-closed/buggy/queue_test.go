package buggy

import (
	"sync"
	"testing"
)

func TestPutClose(t *testing.T) {
	q := NewQueue(4)
	var put bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		put = q.Put(1)
	}()
	q.Close()
	wg.Wait()
	if items := q.Items(); put != (len(items) == 1) {
		t.Errorf("Put reported %v but the queue holds %v", put, items)
	}
}
