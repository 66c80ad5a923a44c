//go:build !go1.23

package sched

// Before Go 1.23 there are no runtime coroutines: every controlled
// goroutine parks on its channel (handoff.go).
const coroutinesSupported = false

func newCoroutine(seq func(yield func(struct{}) bool)) func() (struct{}, bool) {
	panic("unreachable: no coroutines before Go 1.23")
}

func lockedOSThread() bool { return false }
