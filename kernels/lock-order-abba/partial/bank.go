// Package partial is the partial variant of the lock-order-abba kernel.
package partial

import "sync"

// Account is a bank account guarded by its own mutex.
type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// Transfer moves n from one account to the other, holding both locks.
// The locks are taken in id order, so two transfers never deadlock.
func Transfer(from, to *Account, n int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// Audit returns the sum of both balances, read under both locks.
func Audit(a, b *Account) int {
	a.mu.Lock() // BUG: the fix missed this path: still argument order
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	return a.balance + b.balance
}
