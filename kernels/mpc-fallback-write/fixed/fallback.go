// Package fixed is the fixed variant of the mpc-fallback-write kernel.
package fixed

import "sync"

// Degraded is the transient state no watcher may see.
const Degraded = 2

// Run lets an applier set the state from mode and level while a watcher
// samples it; it reports whether the watcher saw Degraded.
func Run(mode, level int) bool {
	var mu sync.Mutex
	state := 0
	saw := false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the applier
		defer wg.Done()
		if mode == 0 {
			mu.Lock()
			state = 1
			mu.Unlock()
		} else if level == 5 {
			// The fallback publishes its final state at once.
			mu.Lock()
			state = 3
			mu.Unlock()
		}
	}()
	go func() { // the watcher
		defer wg.Done()
		mu.Lock()
		s := state
		mu.Unlock()
		if s == Degraded {
			saw = true
		}
	}()
	wg.Wait()
	return saw
}
