// Package buggy is the buggy variant of the narrow-transfer-abba kernel.
package buggy

import "sync"

// Account is a balance under a lock.
type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

// Transfer moves n from a to b.
func Transfer(a, b *Account, n int) {
	// BUG: locks in argument order; Transfer(b, a) takes them the other way.
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	a.balance -= n
	b.balance += n
}
