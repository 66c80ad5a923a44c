//line testdata/gc.go:1
package gc; import __rt "interleave.dev/rt"

import _ "runtime"

type T struct{ n int }

// Garbage collection, finalizers and cleanups.
func collect() {
	t := &T{}
	__rt.SetFinalizer(t, func(*T) {}, __rtSites_da18ecb9+0)
	c := __rt.AddCleanup[T, int](t, func(int) {}, 1, __rtSites_da18ecb9+1)
	__rt.CleanupStop(c, __rtSites_da18ecb9+2)
	__rt.GC(__rtSites_da18ecb9+3)
}

var __rtSites_da18ecb9 = __rt.RegisterFile("testdata/gc.go", "", 10, 2, 11, 7, 12, 2, 13, 2)
