package fixed

import (
	"sync"
	"testing"
)

func TestStoppedBeforeRun(t *testing.T) {
	w := NewWorker(2)
	w.Submit(1)
	w.Submit(2)
	w.Stop()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.Run() // stopped before it started: must process nothing
	}()
	wg.Wait()
	if n := w.Processed(); n != 0 {
		t.Errorf("processed %d jobs after Stop", n)
	}
}
