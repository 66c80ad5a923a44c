// Package fixed is the fixed variant of the mpc-frame-header kernel.
package fixed

import "sync"

// The frame format: a version byte, an opcode byte, then the payload.
const (
	version = 1
	opData  = 'D'
	opPing  = 'P'
	opClose = 'C'
)

// Conn is the receiving end of a framed connection whose frames a pool
// of workers handles; a retransmitted frame may reach two workers at once.
type Conn struct {
	mu       sync.Mutex
	closed   bool
	received int           // payload bytes received
	done     chan struct{} // closed when the peer closes the connection
}

// NewConn returns an open connection.
func NewConn() *Conn { return &Conn{done: make(chan struct{})} }

// isClosed reports whether the peer closed the connection.
func (c *Conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Handle processes one frame; a malformed one is dropped.
func (c *Conn) Handle(frame []byte) {
	if len(frame) < 2 || frame[0] != version {
		return
	}
	switch frame[1] {
	case opData:
		c.mu.Lock()
		c.received += len(frame) - 2
		c.mu.Unlock()
	case opPing:
	case opClose:
		// The check and the close are one critical section.
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.closed {
			return
		}
		c.closed = true
		close(c.done)
	}
}

// Run has two workers handle the same frame, as after a retransmission.
func Run(frame []byte) {
	c := NewConn()
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.Handle(frame)
		}()
	}
	wg.Wait()
}
