// Package fixed is the fixed variant of the send-on-closed kernel.
package fixed

import "sync"

// Queue is a bounded queue that can be closed.
type Queue struct {
	mu     sync.Mutex
	closed bool
	ch     chan int
}

// NewQueue returns a queue of capacity n.
func NewQueue(n int) *Queue { return &Queue{ch: make(chan int, n)} }

// Put adds v unless the queue is closed.
func (q *Queue) Put(v int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	select { // never blocks while holding the lock
	case q.ch <- v:
		return true
	default:
		return false
	}
}

// Close closes the queue; Items then drains it.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	close(q.ch)
}

// Items returns what is left in a closed queue.
func (q *Queue) Items() []int {
	var out []int
	for v := range q.ch {
		out = append(out, v)
	}
	return out
}
