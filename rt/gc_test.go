//go:build go1.24

package rt_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"interleave.dev/rt"
)

// An object the program no longer reaches is collected by runtime.GC as
// natively, although the model knew it (a lock, a memory word, a
// channel): its finalizer or cleanup runs, weak pointers to it are
// cleared. What the program still reaches keeps its model state.

type cached struct {
	mu  sync.Mutex
	val int
	ch  chan int
}

// touch makes an object the model knows in every way, and returns it.
//
//go:noinline
func touch() *cached {
	e := &cached{ch: rt.MakeChan[int](1, 0)}
	rt.Lock(&e.mu, 0)
	rt.Write(&e.val, 0)
	e.val = 1
	rt.Unlock(&e.mu, 0)
	rt.Send(e.ch, 1, 0)
	rt.Recv(e.ch, 0)
	return e
}

// waitFor reports whether c receives before an hour of virtual time.
func waitFor(c chan bool) bool {
	sel := rt.SelectStart(0)
	rt.SelectRecv(sel, c)
	rt.SelectRecv(sel, rt.After(time.Hour, 0))
	return sel.Do(false) == 0
}

//go:noinline
func withFinalizer(done chan bool) {
	rt.SetFinalizer(touch(), func(*cached) { rt.Send(done, true, 0) }, 0)
}

//go:noinline
func withCleanup(done chan bool) runtime.Cleanup {
	return rt.AddCleanup(touch(), func(v int) { rt.Send(done, v == 7, 0) }, 7, 0)
}

//go:noinline
func weakly() weak.Pointer[cached] { return weak.Make(touch()) }

func TestGCFinalizer(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		done := rt.MakeChan[bool](0, 0)
		withFinalizer(done)
		rt.GC(0)
		return fmt.Sprint("finalized: ", waitFor(done))
	}), "finalized: true")
}

func TestGCCleanup(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		done := rt.MakeChan[bool](1, 0)
		withCleanup(done)
		rt.GC(0)
		return fmt.Sprint("cleaned up: ", waitFor(done))
	}), "cleaned up: true")
}

func TestGCWeakPointer(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		w := weakly()
		rt.GC(0)
		return fmt.Sprint("cleared: ", w.Value() == nil)
	}), "cleared: true")
}

// A stopped cleanup or a cleared finalizer is not waited for.
func TestGCStopped(t *testing.T) {
	start := time.Now()
	expect(t, outcomes(t, rt.Options{}, func() string {
		done := rt.MakeChan[bool](1, 0)
		rt.CleanupStop(withCleanup(done), 0)
		e := touch()
		rt.SetFinalizer(e, func(*cached) { rt.Send(done, false, 0) }, 0)
		rt.SetFinalizer(e, nil, 0)
		e = nil
		rt.GC(0)
		return fmt.Sprint("ran: ", waitFor(done), e)
	}), "ran: false <nil>")
	if d := time.Since(start); d > time.Second {
		t.Errorf("runtime.GC waited %v for what will never run", d)
	}
}

// What is still reachable keeps its state in the model: a lock held
// across the collection is still held.
func TestGCKeepsReachable(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		e := touch()
		rt.Lock(&e.mu, 0)
		rt.GC(0)
		got := rt.TryLock(&e.mu, 0)
		rt.Unlock(&e.mu, 0)
		return fmt.Sprint("locked twice: ", got, ", buffered: ", rt.Len(e.ch, 0))
	}), "locked twice: false, buffered: 0")
}

type counted struct {
	n int32
	v int
}

// leftBy starts a goroutine that ends after an access to a new object,
// atomic or plain, and returns the object's cleanup channel.
//
//go:noinline
func leftBy(atomic bool, done chan bool) {
	c := &counted{}
	rt.AddCleanup(c, func(int) { rt.Send(done, true, 0) }, 0, 0)
	rt.Go(func() {
		if atomic {
			rt.AtomicAddInt32(&c.n, 1, 0)
			return
		}
		rt.Write(&c.v, 0)
		c.v++
	}, 0)
}

// A goroutine that ended right after an access to an object does not
// keep it alive: its last pending event names the object's memory
// (otter's cache, whose executor goroutine ended on an atomic load of it,
// was never collected).
func TestGCAfterTheLastAccess(t *testing.T) {
	for _, atomic := range []bool{true, false} {
		t.Run(fmt.Sprintf("atomic=%v", atomic), func(t *testing.T) {
			expect(t, outcomes(t, rt.Options{}, func() string {
				done := rt.MakeChan[bool](1, 0)
				leftBy(atomic, done)
				rt.Sleep(time.Millisecond, 0)
				rt.GC(0)
				return fmt.Sprint("cleaned up: ", waitFor(done))
			}), "cleaned up: true")
		})
	}
}
