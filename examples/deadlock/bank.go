// Package deadlock holds a lock-order inversion: Transfer locks the source
// account, then the destination, so two opposite transfers can each hold
// one lock and wait forever for the other.
package deadlock

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account holding balance.
func NewAccount(balance int) *Account { return &Account{balance: balance} }

// Balance returns the account's balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves amount from one account to another. BUG: the locks are
// taken in argument order, not in a global order.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
