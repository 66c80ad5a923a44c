// Package buggy is the buggy variant of the map-check-then-act kernel.
package buggy

import (
	"sync"
	"sync/atomic"
)

// Conn is a connection.
type Conn struct{ addr string }

// Pool caches one connection per address.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*Conn
	dials atomic.Int32
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{conns: map[string]*Conn{}} }

func (r *Pool) dial(addr string) *Conn {
	r.dials.Add(1)
	return &Conn{addr: addr}
}

// Get returns the connection to addr, dialing it on first use.
func (r *Pool) Get(addr string) *Conn {
	r.mu.Lock()
	c, ok := r.conns[addr]
	r.mu.Unlock()
	if ok {
		return c
	}
	// BUG: another goroutine may dial and insert between the check above
	// and the insert below.
	c = r.dial(addr)
	r.mu.Lock()
	r.conns[addr] = c
	r.mu.Unlock()
	return c
}
