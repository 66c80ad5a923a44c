// Package fixed is the fixed variant of the timeout-abandoned-sender kernel.
package fixed

import (
	"errors"
	"sync"
	"time"
)

// ErrTimeout reports that the computation did not finish in time.
var ErrTimeout = errors.New("timeout")

// Fetch runs compute in a goroutine and waits for it at most timeout. The
// worker can always deliver into the buffer, and Fetch never returns with
// the worker still outstanding.
func Fetch(timeout time.Duration, compute func() int) (int, error) {
	ch := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ch <- compute()
	}()
	defer wg.Wait()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return 0, ErrTimeout
	}
}
