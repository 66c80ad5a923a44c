// Package fixed is the fixed variant of the narrow-transfer-abba kernel.
package fixed

import "sync"

// Account is a balance under a lock.
type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

// Transfer moves n from a to b, locking the accounts in id order.
func Transfer(a, b *Account, n int) {
	first, second := a, b
	if b.id < a.id {
		first, second = b, a
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	a.balance -= n
	b.balance += n
}
