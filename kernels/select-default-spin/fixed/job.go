// Package fixed is the fixed variant of the select-default-spin kernel.
package fixed

// Job runs once; WaitStarted lets another goroutine wait until it runs.
type Job struct {
	started chan struct{}
	quit    chan struct{}
}

// NewJob returns a new job.
func NewJob() *Job { return &Job{started: make(chan struct{}), quit: make(chan struct{})} }

// Run runs the job.
func (j *Job) Run() {
	close(j.started)
}

// Stop makes WaitStarted give up.
func (j *Job) Stop() { close(j.quit) }

// WaitStarted blocks until the job has started; false if stopped first.
func (j *Job) WaitStarted() bool {
	select {
	case <-j.started:
		return true
	case <-j.quit:
		return false
	}
}
