// Package fixed is the fixed variant of the cond-wait-leak-sleeper kernel.
package fixed

import (
	"sync"
	"time"
)

// Pool runs jobs on a fixed set of workers.
type Pool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    []func()
	closed  bool
	running int
}

// NewPool starts n workers and the reaper.
func NewPool(n int) *Pool {
	p := &Pool{running: n}
	p.cond = sync.NewCond(&p.mu)
	for i := 0; i < n; i++ {
		go p.work()
	}
	go p.reap()
	return p
}

// Submit queues a job.
func (p *Pool) Submit(job func()) {
	p.mu.Lock()
	p.jobs = append(p.jobs, job)
	p.mu.Unlock()
	p.cond.Signal()
}

// Close stops the pool once the queued jobs are done.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (p *Pool) work() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for len(p.jobs) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.jobs) == 0 {
			p.running--
			return
		}
		job := p.jobs[0]
		p.jobs = p.jobs[1:]
		p.mu.Unlock()
		job()
		p.mu.Lock()
	}
}

// reap polls until every worker has exited.
func (p *Pool) reap() {
	for {
		time.Sleep(time.Millisecond)
		p.mu.Lock()
		done := p.closed && p.running == 0
		p.mu.Unlock()
		if done {
			return
		}
	}
}
