package fidelity

import (
	"sync"
	"testing"
	"unsafe"
)

// A striped counter picks a stripe by the address of a local: the
// goroutines alive at the same time have different stacks, so the
// addresses spread. A goroutine's stack must not move under it while the
// tool's frames come and go at its scheduling points, or another
// goroutine's stack takes the place it left and the addresses collide.

//go:noinline
func stackWord() uintptr {
	var x byte
	return uintptr(unsafe.Pointer(&x)) >> 11 // below 2 KiB: the call depth
}

func TestStackAddressesStayApart(t *testing.T) {
	const goroutines = 64
	words := make([]uintptr, goroutines)
	var started, release sync.WaitGroup
	started.Add(goroutines)
	release.Add(1)
	for i := range goroutines {
		go func() {
			words[i] = stackWord()
			started.Done()
			release.Wait()
		}()
	}
	started.Wait()
	release.Done()
	distinct := make(map[uintptr]bool)
	for _, w := range words {
		distinct[w] = true
	}
	// Natively all 64 differ; a few collisions leave room for a stack
	// that moves for the program's own reasons.
	if len(distinct) < goroutines*3/4 {
		t.Fatalf("%d goroutines alive at once have %d distinct stack addresses", goroutines, len(distinct))
	}
}
