// Package leak holds a goroutine leak: when the caller times out, the
// worker's send on the unbuffered result channel has no receiver any more,
// and the worker blocks forever.
package leak

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the work takes longer than the timeout.
var ErrTimeout = errors.New("timeout")

// Fetch runs work in a goroutine and waits for its result at most timeout.
// BUG: the result channel is unbuffered, so a worker that finishes after
// the timeout blocks on its send forever.
func Fetch(work func() int, timeout time.Duration) (int, error) {
	result := make(chan int)
	go func() {
		result <- work()
	}()
	select {
	case v := <-result:
		return v, nil
	case <-time.After(timeout):
		return 0, ErrTimeout
	}
}
