// Package verifynone has a worker pool whose tests check for leaked
// goroutines with goleak.VerifyNone.
package verifynone

import "sync"

// Pool runs jobs on n workers.
type Pool struct {
	jobs chan func()
	wg   sync.WaitGroup
}

// New starts a pool of n workers.
func New(n int) *Pool {
	p := &Pool{jobs: make(chan func())}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				j()
			}
		}()
	}
	return p
}

// Submit runs j on a worker.
func (p *Pool) Submit(j func()) { p.jobs <- j }

// Close stops the workers and waits for them.
func (p *Pool) Close() {
	close(p.jobs)
	p.wg.Wait()
}
