package fixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestTransfers(t *testing.T) {
	a := &Account{id: 1, balance: 100}
	b := &Account{id: 2, balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Transfer(a, b, 10)
	}()
	go func() {
		defer wg.Done()
		var warm atomic.Int64
		for i := 0; i < 40; i++ {
			warm.Add(1)
		}
		Transfer(b, a, 20)
	}()
	wg.Wait()
	if a.balance != 110 || b.balance != 90 {
		t.Errorf("balances = %d, %d, want 110, 90", a.balance, b.balance)
	}
}
