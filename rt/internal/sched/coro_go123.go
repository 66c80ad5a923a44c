//go:build go1.23

package sched

import (
	"iter"
	_ "unsafe" // go:linkname
)

// coroutinesSupported says whether controlled goroutines can run on
// coroutines (handoff.go): Go 1.23 and later.
const coroutinesSupported = true

// newCoroutine makes a coroutine that runs seq when first resumed, and
// returns the function that resumes it.
func newCoroutine(seq iter.Seq[struct{}]) func() (struct{}, bool) {
	resume, _ := iter.Pull(seq)
	return resume
}

// lockedOSThread reports whether the calling goroutine is locked to its
// thread (runtime.LockOSThread, or a cgo callback): a coroutine must then
// not switch (the runtime throws), and one spawned from it must not be a
// coroutine.
//
//go:linkname lockedOSThread runtime.lockedOSThread
func lockedOSThread() bool
