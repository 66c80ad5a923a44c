// Package fixed is the fixed variant of the map-check-then-act kernel.
package fixed

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
	defer r.mu.Unlock()
	if c, ok := r.conns[addr]; ok {
		return c
	}
	c := r.dial(addr)
	r.conns[addr] = c
	return c
}
