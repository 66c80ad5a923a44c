// Package buggy is the buggy variant of the timeout-abandoned-sender kernel.
package buggy

import (
	"errors"
	"time"
)

// ErrTimeout reports that the computation did not finish in time.
var ErrTimeout = errors.New("timeout")

// Fetch runs compute in a goroutine and waits for it at most timeout.
func Fetch(timeout time.Duration, compute func() int) (int, error) {
	ch := make(chan int) // BUG: unbuffered; nobody receives after a timeout
	go func() { ch <- compute() }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return 0, ErrTimeout
	}
}
