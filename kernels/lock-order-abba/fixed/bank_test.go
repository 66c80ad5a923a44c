package fixed

import (
	"sync"
	"testing"
)

func TestTransfer(t *testing.T) {
	a := &Account{id: 1, balance: 100}
	b := &Account{id: 2, balance: 100}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		Transfer(a, b, 10)
	}()
	go func() {
		defer wg.Done()
		Transfer(b, a, 20)
	}()
	go func() {
		defer wg.Done()
		if sum := Audit(b, a); sum != 200 {
			t.Errorf("Audit = %d, want 200", sum)
		}
	}()
	wg.Wait()
	if a.balance != 110 || b.balance != 90 {
		t.Errorf("balances = %d, %d, want 110, 90", a.balance, b.balance)
	}
}
