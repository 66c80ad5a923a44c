package fidelity

import (
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"
)

// A cache entry the test drops is collected: its finalizer or cleanup
// runs and weak pointers to it are cleared, although the tool modeled its
// lock, its field and its channel.

type entry struct {
	mu  sync.Mutex
	val int
	ch  chan int
}

//go:noinline
func newEntry() *entry {
	e := &entry{ch: make(chan int, 1)}
	e.mu.Lock()
	e.val = 1
	e.mu.Unlock()
	e.ch <- 1
	<-e.ch
	return e
}

func TestFinalizerRuns(t *testing.T) {
	done := make(chan bool, 1)
	func() {
		runtime.SetFinalizer(newEntry(), func(*entry) { done <- true })
	}()
	runtime.GC()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("the finalizer did not run")
	}
}

func TestCleanupRuns(t *testing.T) {
	done := make(chan int, 1)
	func() {
		runtime.AddCleanup(newEntry(), func(v int) { done <- v }, 7)
	}()
	runtime.GC()
	select {
	case v := <-done:
		if v != 7 {
			t.Fatalf("cleanup argument %d", v)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the cleanup did not run")
	}
}

func TestWeakPointerCleared(t *testing.T) {
	w := func() weak.Pointer[entry] { return weak.Make(newEntry()) }()
	runtime.GC()
	if w.Value() != nil {
		t.Fatal("weak pointer to a collected entry still set")
	}
}

// A weak-keyed cache: the entry stays while the caller holds it.
func TestWeakPointerKept(t *testing.T) {
	e := newEntry()
	w := weak.Make(e)
	runtime.GC()
	if w.Value() != e {
		t.Fatal("weak pointer to a live entry cleared")
	}
	e.mu.Lock()
	e.val++
	e.mu.Unlock()
}
