// Package tagged has files selected by build tags, in both the old and the
// new syntax, and a file for another system that must not be built.
package tagged

// Queue hands values from producers to a consumer.
type Queue struct{ c chan int }

// New returns a queue with a buffer of size n.
func New(n int) *Queue { return &Queue{c: make(chan int, n)} }

// Get receives the next value.
func (q *Queue) Get() int { return <-q.c }
