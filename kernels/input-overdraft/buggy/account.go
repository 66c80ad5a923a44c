// Package buggy is the buggy variant of the input-overdraft kernel.
package buggy

import "sync"

// Account is a bank account that must never go negative.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Withdraw debits n if the balance covers it.
func (a *Account) Withdraw(n int) bool {
	if a.Balance() < n { // BUG: the check and the debit are separate critical sections
		return false
	}
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
	return true
}

// Run withdraws x and y concurrently from an account holding balance and
// returns the final balance.
func Run(balance, x, y int) int {
	a := &Account{balance: balance}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Withdraw(x)
	}()
	go func() {
		defer wg.Done()
		a.Withdraw(y)
	}()
	wg.Wait()
	return a.Balance()
}
