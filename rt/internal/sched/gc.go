//go:build go1.24

package sched

import (
	"runtime"
	"unsafe"
	"weak"
)

// The model refers to the program's memory by address: objects are found
// by the address as an integer (Iteration.objs), which the garbage
// collector ignores, and each keeps its memory alive through object.addr,
// so that no address the model knows can be reused for another allocation
// while the iteration runs (its state would then be taken for the new
// object's: a stale race history, a lock held). A garbage collection the
// program asks for lets go of all of them for its duration.

// CollectGarbage runs a garbage collection for g as runtime.GC does. The
// memory the model refers to is held only weakly meanwhile: what the
// program no longer reaches is collected as natively (its finalizers
// queued, its cleanups run, weak pointers to it cleared) and the model
// forgets it; the rest is held again. Memory words are forgotten whether
// they died or not: they are the bulk of the objects, a weak pointer to
// each word costs a list walk in the runtime per word of the same
// allocation (seconds for a large slice), and forgetting one only loses
// its race history across the collection (a race between an access
// before runtime.GC and one after goes unreported), never reports one.
// Pooled objects (sync.Pool) are dropped, as the collector drops them.
func (g *G) CollectGarbage() {
	it := g.it
	type held struct {
		key uintptr
		o   *object
		w   weak.Pointer[byte]
	}
	hs := make([]held, 0, len(it.objs))
	for k, o := range it.objs {
		switch o.kind {
		case kindMemory, kindAtomic:
			// Forgotten; and what still refers to the object (the
			// pending access of a goroutine that exited after it, a
			// race history) no longer keeps the memory alive.
			delete(it.objs, k)
			o.addr = nil
			continue
		case kindPool:
			clear(o.pool)
			o.pool = o.pool[:0]
		}
		if o.addr != nil && o.goMemory() {
			hs = append(hs, held{k, o, weak.Make((*byte)(o.addr))})
			o.addr = nil
		}
	}
	clear(it.recent[:]) // the map forgets objects
	clear(it.words[:cap(it.words)])
	it.words = it.words[:0]
	it.wordsGen++
	runtime.GC()
	for i := range hs {
		h := &hs[i]
		if p := h.w.Value(); p != nil {
			h.o.addr = unsafe.Pointer(p)
		} else {
			delete(it.objs, h.key)
		}
	}
}

// goMemory reports whether o's memory is Go's (heap or data), which a
// weak pointer can refer to, and not memory the program mapped itself
// (weak.Make of that is a fatal error). runtime.AddCleanup tells them
// apart with a panic; asked once per object.
func (o *object) goMemory() bool {
	if o.memory == memUnknown {
		o.memory = memForeign
		if isGoMemory(o.addr) {
			o.memory = memGo
		}
	}
	return o.memory == memGo
}

func isGoMemory(p unsafe.Pointer) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	c := runtime.AddCleanup((*byte)(p), func(struct{}) {}, struct{}{})
	c.Stop()
	return true
}
