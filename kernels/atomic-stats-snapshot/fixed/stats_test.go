package fixed

import (
	"sync"
	"testing"
)

func TestSnapshot(t *testing.T) {
	var s Stats
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Hit()
		}()
	}
	snap := s.Snapshot()
	wg.Wait()
	if snap.Hits > 2 || snap.Misses != 0 {
		t.Errorf("impossible snapshot %+v", snap)
	}
}
