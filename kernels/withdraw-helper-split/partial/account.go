// Package partial is the partial variant of the withdraw-helper-split kernel.
package partial

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account holding n.
func NewAccount(n int) *Account { return &Account{balance: n} }

// canWithdraw reports whether the account holds n.
func (a *Account) canWithdraw(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance >= n
}

// debit takes n from the account.
func (a *Account) debit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance -= n
}

// Withdraw takes n from the account if it holds that much.
func (a *Account) Withdraw(n int) bool {
	if !a.canWithdraw(n) {
		return false
	}
	// BUG: the refactoring kept the check and the debit apart.
	a.debit(n)
	return true
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
