package deadlock

import (
	"sync"
	"testing"
)

func TestOppositeTransfers(t *testing.T) {
	a, b := NewAccount(100), NewAccount(100)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Transfer(a, b, 10)
	}()
	go func() {
		defer wg.Done()
		Transfer(b, a, 20)
	}()
	wg.Wait()
	if got := a.Balance() + b.Balance(); got != 200 {
		t.Fatalf("total balance %d, want 200", got)
	}
}
