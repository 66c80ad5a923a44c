// Package buggy is the buggy variant of the withdraw-helper-split kernel.
package buggy

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account holding n.
func NewAccount(n int) *Account { return &Account{balance: n} }

// Withdraw takes n from the account if it holds that much.
func (a *Account) Withdraw(n int) bool {
	a.mu.Lock()
	ok := a.balance >= n
	a.mu.Unlock()
	if !ok {
		return false
	}
	// BUG: another withdrawal can pass the check before this debit.
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
	return true
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
