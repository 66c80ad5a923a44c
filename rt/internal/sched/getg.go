//go:build amd64 || arm64

package sched

// getg returns the address of the calling goroutine's runtime descriptor:
// an identity of the goroutine for as long as it lives, read in a
// nanosecond. On other architectures it is 0 and identity rests on the
// label alone.
func getg() uintptr
