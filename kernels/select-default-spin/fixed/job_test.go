package fixed

import (
	"sync"
	"testing"
)

func TestWaitStarted(t *testing.T) {
	j := NewJob()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		j.Run()
	}()
	if !j.WaitStarted() {
		t.Errorf("WaitStarted gave up although the job ran")
	}
	j.Stop()
	wg.Wait()
}
