// Package buggy is the buggy variant of the mpc-sentinel kernel.
package buggy

import "sync"

// Closed is the sentinel value that tells the monitor to shut down; no
// update may publish it.
const Closed = 7

// Run lets T1 publish i + 1 and T2 publish j while a monitor T3 samples x.
// It reports whether the monitor saw the sentinel. Inputs that would
// publish the sentinel directly are rejected.
func Run(i, j int) bool {
	if i+1 == Closed || j == Closed {
		return false
	}
	var mu sync.Mutex
	x := 0
	sawClosed := false
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // T1
		defer wg.Done()
		mu.Lock()
		x = i
		mu.Unlock()
		// BUG: i + 1 is published in two steps; the intermediate value and
		// a write by T2 in between are observable.
		mu.Lock()
		x = x + 1
		mu.Unlock()
	}()
	go func() { // T2
		defer wg.Done()
		mu.Lock()
		x = j
		mu.Unlock()
	}()
	go func() { // T3
		defer wg.Done()
		mu.Lock()
		v := x
		mu.Unlock()
		if v == Closed {
			sawClosed = true
		}
	}()
	wg.Wait()
	return sawClosed
}
