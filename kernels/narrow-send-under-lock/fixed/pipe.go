// Package fixed is the fixed variant of the narrow-send-under-lock kernel.
package fixed

import "sync"

// Pipe hands values from a producer to a consumer and counts them.
type Pipe struct {
	mu    sync.Mutex
	sent  int
	ready int
	c     chan int
}

// Produce sends v.
func (p *Pipe) Produce(v int) {
	p.mu.Lock()
	p.sent++
	p.mu.Unlock()
	p.c <- v
}

// Consume counts itself ready and receives one value.
func (p *Pipe) Consume() int {
	p.mu.Lock()
	p.ready++
	p.mu.Unlock()
	return <-p.c
}
