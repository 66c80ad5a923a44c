package gc

import "runtime"

type T struct{ n int }

// Garbage collection, finalizers and cleanups.
func collect() {
	t := &T{}
	runtime.SetFinalizer(t, func(*T) {})
	c := runtime.AddCleanup(t, func(int) {}, 1)
	c.Stop()
	runtime.GC()
}
