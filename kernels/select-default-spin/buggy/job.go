// Package buggy is the buggy variant of the select-default-spin kernel.
package buggy

import "sync/atomic"

// Job runs once; WaitStarted lets another goroutine wait until it runs.
type Job struct {
	state atomic.Int32 // 0 new, 1 running, 2 finished
	quit  chan struct{}
}

// NewJob returns a new job.
func NewJob() *Job { return &Job{quit: make(chan struct{})} }

// Run runs the job.
func (j *Job) Run() {
	j.state.Store(1)
	j.state.Store(2)
}

// Stop makes WaitStarted give up.
func (j *Job) Stop() { close(j.quit) }

// WaitStarted busy-waits until the job is running; false if stopped.
func (j *Job) WaitStarted() bool {
	for spins := 0; spins < 1<<23; spins++ { // bounded only so plain go test ends
		// BUG: waits for the transient state 1; if the job already
		// finished, it spins forever.
		if j.state.Load() == 1 {
			return true
		}
		select {
		case <-j.quit:
			return false
		default:
		}
	}
	return false
}
