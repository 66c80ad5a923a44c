// Package fixed is the fixed variant of the lock-order-abba kernel.
package fixed

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// lockBoth locks a and b in id order and returns the function that unlocks
// them.
func lockBoth(a, b *Account) func() {
	first, second := a, b
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	second.mu.Lock()
	return func() {
		second.mu.Unlock()
		first.mu.Unlock()
	}
}

// Transfer moves n from one account to the other, holding both locks.
func Transfer(from, to *Account, n int) {
	unlock := lockBoth(from, to)
	defer unlock()
	from.balance -= n
	to.balance += n
}

// Audit returns the sum of both balances, read under both locks.
func Audit(a, b *Account) int {
	unlock := lockBoth(a, b)
	defer unlock()
	return a.balance + b.balance
}
