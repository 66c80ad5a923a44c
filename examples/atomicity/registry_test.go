package atomicity

import (
	"sync"
	"testing"
)

func TestRegisterOnce(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for _, owner := range []string{"alice", "bob"} {
		wg.Add(1)
		go func(owner string) {
			defer wg.Done()
			if r.Register("admin", owner) == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}(owner)
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d owners registered the same name, want 1", wins)
	}
}
