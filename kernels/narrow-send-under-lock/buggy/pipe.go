// Package buggy is the buggy variant of the narrow-send-under-lock kernel.
package buggy

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
	defer p.mu.Unlock()
	p.sent++
	p.c <- v // BUG: sends while holding p.mu, which the consumer needs first
}

// Consume counts itself ready and receives one value.
func (p *Pipe) Consume() int {
	p.mu.Lock()
	p.ready++
	p.mu.Unlock()
	return <-p.c
}
