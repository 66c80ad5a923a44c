package inlinelits

import "sync"

// Deferred: the flag stays in its goroutine, and on its stack.
func Deferred(mu *sync.Mutex, n *int) {
	mu.Lock()
	returned := false
	defer func() {
		if !returned {
			*n = 0
		}
		mu.Unlock()
	}()
	*n++
	returned = true
}

// Called where it stands.
func Called() int {
	k := 0
	func() { k++ }()
	return k
}

// A goroutine captures it: shared.
func Spawned(wg *sync.WaitGroup) int {
	k := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		k++
	}()
	wg.Wait()
	return k
}

// A goroutine started inside a deferred literal captures it: shared.
func SpawnedFromDeferred(wg *sync.WaitGroup) (k int) {
	defer func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k++
		}()
	}()
	k = 1
	return k
}

// A literal kept and called later may run anywhere: shared.
func Kept() func() {
	k := 0
	f := func() { k++ }
	f()
	return f
}

// The literal a go statement runs is returned by one called where it
// stands: the returned one captures, and is shared.
func Returned() {
	k := 0
	go func() func() { return func() { k++ } }()()
	k++
}
