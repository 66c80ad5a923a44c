package threads

import "runtime"

// Pinned runs f on a thread of its own, which it leaves locked: the
// goroutine's end ends the thread.
func Pinned(f func()) {
	go func() {
		runtime.LockOSThread()
		f()
	}()
}

var lock = runtime.LockOSThread
