// Package buggy is the buggy variant of the lock-order-abba kernel.
package buggy

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// Transfer moves n from one account to the other, holding both locks.
func Transfer(from, to *Account, n int) {
	from.mu.Lock() // BUG: locks in argument order
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// Audit returns the sum of both balances, read under both locks.
func Audit(a, b *Account) int {
	a.mu.Lock() // BUG: locks in argument order
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	return a.balance + b.balance
}
