package fixed

import (
	"sync"
	"testing"
)

func TestWithdraw(t *testing.T) {
	a := NewAccount(10)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Withdraw(10)
		}()
	}
	wg.Wait()
	if b := a.Balance(); b < 0 {
		t.Errorf("balance = %d after two withdrawals of 10 from 10", b)
	}
}
