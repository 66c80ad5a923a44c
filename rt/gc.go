//go:build go1.24

package rt

import (
	"reflect"
	"runtime"
	"sync"
	"time"
	"weak"

	"interleave.dev/rt/internal/sched"
)

// Garbage collection inside an exploration. runtime.GC lets the model
// hold the program's memory only weakly while it runs
// (sched.CollectGarbage), so that what the program no longer reaches is
// collected as natively. The finalizers and cleanups the program
// registered run in a controlled goroutine, started by the runtime.GC
// after which they are due: the runtime's own finalizer or cleanup
// goroutine, which the tool does not control, only hands them over.
// Natively they run on a goroutine of the runtime's, one after another,
// soon after the collection; in the model, that goroutine runs them in the
// order the runtime queued them and is the standard library's, never
// reported as leaked. A finalizer or cleanup due after its iteration ended
// does not run (Go never promises that one runs).

// gcReg is a finalizer or cleanup registered inside an exploration.
type gcReg struct {
	it      *sched.Iteration
	alive   func() bool // false once the object is unreachable
	call    func()      // the program's function, with its argument
	fired   bool        // the runtime handed call over; guarded by gcRegs.mu
	stopped bool        // the program took it back; guarded by gcRegs.mu
}

// gcRegs holds the registrations of the running iterations and the calls
// the runtime handed over, in that order.
var gcRegs struct {
	mu       sync.Mutex
	regs     []*gcReg
	fired    []*gcReg
	final    map[uintptr]*gcReg         // the finalizer of each object
	cleanups map[runtime.Cleanup]*gcReg // the registration of each cleanup
}

func addReg(r *gcReg) {
	gcRegs.mu.Lock()
	kept := gcRegs.regs[:0]
	for _, x := range gcRegs.regs {
		if !x.fired && !x.stopped && x.it.Running() {
			kept = append(kept, x)
		}
	}
	clear(gcRegs.regs[len(kept):])
	gcRegs.regs = append(kept, r)
	gcRegs.mu.Unlock()
}

// fire is what the runtime calls, on its own goroutine, when r is due.
// Due after its iteration, it does nothing: an allocation here would be
// counted by a program measuring its own in another iteration.
func (r *gcReg) fire() {
	if !r.it.Running() {
		return
	}
	gcRegs.mu.Lock()
	r.fired = true
	gcRegs.fired = append(gcRegs.fired, r)
	gcRegs.mu.Unlock()
}

// gcHandOver bounds how long runtime.GC waits for the runtime to hand over
// the finalizers and cleanups it made due.
const gcHandOver = 2 * time.Second

// GC replaces runtime.GC.
func GC(s Site) {
	g := cur()
	if g == nil {
		runtime.GC()
		return
	}
	it := g.Iteration()
	g.CollectGarbage()
	// The runtime queues the finalizers and cleanups of what it found
	// unreachable and runs them on its goroutines: wait until it has
	// handed over every one that is due, as a native program that sleeps
	// after runtime.GC would see them run.
	deadline := time.Now().Add(gcHandOver)
	for {
		waiting := false
		gcRegs.mu.Lock()
		for _, r := range gcRegs.regs {
			if r.it == it && !r.fired && !r.stopped && !r.alive() {
				waiting = true
				break
			}
		}
		gcRegs.mu.Unlock()
		if !waiting || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Microsecond)
	}
	g.Reenter() // the wait was native: the schedule may have been taken over
	var calls []func()
	gcRegs.mu.Lock()
	kept := gcRegs.fired[:0]
	for _, r := range gcRegs.fired {
		switch {
		case r.it == it:
			calls = append(calls, r.call)
		case r.it.Running():
			kept = append(kept, r)
		}
	}
	clear(gcRegs.fired[len(kept):])
	gcRegs.fired = kept
	gcRegs.mu.Unlock()
	if len(calls) > 0 {
		g.GoWatcher(func() {
			for _, f := range calls {
				f()
			}
		}, uint32(s))
	}
}

// SetFinalizer replaces runtime.SetFinalizer.
func SetFinalizer(obj, finalizer any, s Site) {
	g := cur()
	ov, fv := reflect.ValueOf(obj), reflect.ValueOf(finalizer)
	if g == nil || finalizer == nil {
		runtime.SetFinalizer(obj, finalizer)
		if finalizer == nil && ov.Kind() == reflect.Pointer {
			gcRegs.mu.Lock()
			if r := gcRegs.final[uintptr(ov.UnsafePointer())]; r != nil {
				r.stopped = true
				delete(gcRegs.final, uintptr(ov.UnsafePointer()))
			}
			gcRegs.mu.Unlock()
		}
		return
	}
	ft := fv.Type()
	if ov.Kind() != reflect.Pointer || ov.IsNil() || ft.Kind() != reflect.Func || ft.NumIn() != 1 || ft.IsVariadic() || !ov.Type().AssignableTo(ft.In(0)) {
		runtime.SetFinalizer(obj, finalizer) // the runtime's own error
		return
	}
	w := weak.Make((*byte)(ov.UnsafePointer()))
	r := &gcReg{it: g.Iteration(), alive: func() bool { return w.Value() != nil }}
	key := uintptr(ov.UnsafePointer())
	var arg any
	r.call = func() { fv.Call([]reflect.Value{reflect.ValueOf(arg)}) }
	runtime.SetFinalizer(obj, func(x any) {
		arg = x
		gcRegs.mu.Lock()
		if gcRegs.final[key] == r {
			delete(gcRegs.final, key)
		}
		gcRegs.mu.Unlock()
		r.fire()
	})
	addReg(r)
	gcRegs.mu.Lock()
	if gcRegs.final == nil {
		gcRegs.final = make(map[uintptr]*gcReg)
	}
	gcRegs.final[key] = r
	gcRegs.mu.Unlock()
}

// AddCleanup replaces runtime.AddCleanup.
func AddCleanup[T, S any](ptr *T, cleanup func(S), arg S, s Site) runtime.Cleanup {
	g := cur()
	if g == nil {
		return runtime.AddCleanup(ptr, cleanup, arg)
	}
	w := weak.Make(ptr)
	r := &gcReg{it: g.Iteration(), alive: func() bool { return w.Value() != nil }}
	var got S
	r.call = func() { cleanup(got) }
	var c runtime.Cleanup
	c = runtime.AddCleanup(ptr, func(a S) {
		got = a
		gcRegs.mu.Lock()
		delete(gcRegs.cleanups, c)
		gcRegs.mu.Unlock()
		r.fire()
	}, arg)
	addReg(r)
	gcRegs.mu.Lock()
	if gcRegs.cleanups == nil {
		gcRegs.cleanups = make(map[runtime.Cleanup]*gcReg)
	}
	gcRegs.cleanups[c] = r
	gcRegs.mu.Unlock()
	return c
}

// CleanupStop replaces the method call c.Stop() of a runtime.Cleanup.
func CleanupStop(c runtime.Cleanup, s Site) {
	c.Stop()
	gcRegs.mu.Lock()
	if r := gcRegs.cleanups[c]; r != nil {
		r.stopped = true
		delete(gcRegs.cleanups, c)
	}
	gcRegs.mu.Unlock()
}
