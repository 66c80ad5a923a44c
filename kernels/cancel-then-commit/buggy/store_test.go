package buggy

import (
	"context"
	"sync"
	"testing"
)

func TestCancelRollsBack(t *testing.T) {
	s := NewStore()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		Worker(ctx, s, "k", 1)
	}()
	cancel()
	s.Delete("k") // roll back whatever the canceled worker wrote
	wg.Wait()
	if s.Has("k") {
		t.Errorf("the canceled worker's write survived the rollback")
	}
}
