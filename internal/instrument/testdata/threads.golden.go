//line testdata/threads.go:1
package threads; import __rt "interleave.dev/rt"

import "runtime"

// Pinned runs f on a thread of its own, which it leaves locked: the
// goroutine's end ends the thread.
func Pinned(f func()) {
	__rt.Go(func() {
		runtime.LockOSThread()
		f()
	}, __rtSites_0290d926+0)
}

var lock = runtime.LockOSThread

var __rtSites_0290d926 = __rt.RegisterFile("testdata/threads.go", "", 8, 2)

var _ = __rt.LocksThreads()
