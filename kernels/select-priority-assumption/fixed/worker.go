// Package fixed is the fixed variant of the select-priority-assumption kernel.
package fixed

import "sync"

// Worker processes jobs until stopped.
type Worker struct {
	jobs chan int
	stop chan struct{}
	mu   sync.Mutex
	done []int
}

// NewWorker returns a worker with a queue of n jobs.
func NewWorker(n int) *Worker {
	return &Worker{jobs: make(chan int, n), stop: make(chan struct{})}
}

// Submit queues job j.
func (w *Worker) Submit(j int) { w.jobs <- j }

// Stop stops the worker: no job is processed once Run has seen it.
func (w *Worker) Stop() { close(w.stop) }

func (w *Worker) process(j int) {
	w.mu.Lock()
	w.done = append(w.done, j)
	w.mu.Unlock()
}

// Processed returns the number of jobs processed.
func (w *Worker) Processed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.done)
}

// Run processes jobs until Stop.
func (w *Worker) Run() {
	for {
		select { // stop first: a closed stop always wins
		case <-w.stop:
			return
		default:
		}
		select {
		case <-w.stop:
			return
		case j := <-w.jobs:
			w.process(j)
		}
	}
}
