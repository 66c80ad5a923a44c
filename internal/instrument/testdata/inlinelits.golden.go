//line testdata/inlinelits.go:1
package inlinelits; import __rt "interleave.dev/rt"

import "sync"

// Deferred: the flag stays in its goroutine, and on its stack.
func Deferred(mu *sync.Mutex, n *int) {
	__rt.Lock(mu, __rtSites_f054ba42+0)
	returned := false
	defer func() {
		if !returned {
			__rt.Write(n, __rtSites_f054ba42+11); *n = 0
		}
		__rt.Unlock(mu, __rtSites_f054ba42+1)
	}()
	__rt.Update(n, __rtSites_f054ba42+10); *n++
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
	__rt.WGAdd(wg, 1, __rtSites_f054ba42+2)
	__rt.Go(func() {
		defer __rt.WGDone(wg, __rtSites_f054ba42+4)
		__rt.Update(&k, __rtSites_f054ba42+13); k++
	}, __rtSites_f054ba42+3)
	__rt.WGWait(wg, __rtSites_f054ba42+5)
	__rt.Read(&k, __rtSites_f054ba42+12); return k
}

// A goroutine started inside a deferred literal captures it: shared.
func SpawnedFromDeferred(wg *sync.WaitGroup) (k int) {
	defer func() {
		__rt.WGAdd(wg, 1, __rtSites_f054ba42+6)
		__rt.Go(func() {
			defer __rt.WGDone(wg, __rtSites_f054ba42+8)
			__rt.Update(&k, __rtSites_f054ba42+16); k++
		}, __rtSites_f054ba42+7)
	}()
	__rt.Write(&k, __rtSites_f054ba42+14); k = 1
	__rt.Read(&k, __rtSites_f054ba42+15); return k
}

// A literal kept and called later may run anywhere: shared.
func Kept() func() {
	k := 0
	f := func() { __rt.Update(&k, __rtSites_f054ba42+17); k++ }
	f()
	return f
}

// The literal a go statement runs is returned by one called where it
// stands: the returned one captures, and is shared.
func Returned() {
	k := 0
	{ __rtArg1 := func() func() { return func() { __rt.Update(&k, __rtSites_f054ba42+19); k++ } }(); __rt.Go(func() { __rtArg1() }, __rtSites_f054ba42+9) }
	__rt.Update(&k, __rtSites_f054ba42+18); k++
}

var __rtSites_f054ba42 = __rt.RegisterFile("testdata/inlinelits.go", "l*mu\nl*mu\nw*wg\n\nw*wg\nw*wg\nw*wg\n\nw*wg\n\nv**n\nv**n\nv*k\nv*k\nv*k\nv*k\nv*k\nv*k\nv*k\nv*k", 7, 2, 13, 3, 29, 2, 30, 2, 31, 9, 34, 2, 41, 3, 42, 3, 43, 10, 63, 2, 15, 2, 11, 4, 35, 9, 32, 3, 47, 2, 48, 9, 44, 4, 54, 16, 64, 2, 63, 37)
