package buggy

import (
	"context"
	"sync"
	"testing"
)

func TestSearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		cancel()
	}()
	r, err := Search(ctx, "go")
	if err == nil && r != "GO" {
		t.Errorf("Search = %q, want GO", r)
	}
	if err != nil && err != context.Canceled {
		t.Errorf("Search error %v, want nil or context.Canceled", err)
	}
	wg.Wait()
}
