// Package buggy is the buggy variant of the rangevar-capture-race kernel.
package buggy

import "sync"

// CheckAll checks every host concurrently and returns each host's result.
func CheckAll(hosts []string) map[string]int {
	var mu sync.Mutex
	results := make(map[string]int)
	var wg sync.WaitGroup
	started := 0
	for _, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := check(h) // BUG: h is the range variable, shared by all iterations (go 1.21 semantics)
			mu.Lock()
			results[h] = n
			mu.Unlock()
		}()
		started++
	}
	wg.Wait()
	if started != len(hosts) {
		panic("unreachable")
	}
	return results
}

// check stands for a network probe of host.
func check(host string) int { return len(host) }
