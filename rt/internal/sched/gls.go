package sched

import (
	_ "runtime/pprof" // provides the label hooks linked below
	"unsafe"
)

// Goroutine identity. Each controlled goroutine stores a pointer to its
// label in the runtime's per-goroutine profiler-label slot, which costs a
// couple of nanoseconds to read. The label begins with the layout of
// runtime/pprof's label map (an empty label list), so a CPU profile taken
// while tests run still reads it as "no labels".
//
// Goroutines started natively by a controlled goroutine (inside code the
// instrumenter did not rewrite) inherit the slot; they are told apart when
// possible by checking that the labeled goroutine is the one the scheduler
// let run.

//go:linkname getProfLabel runtime/pprof.runtime_getProfLabel
func getProfLabel() unsafe.Pointer

//go:linkname setProfLabel runtime/pprof.runtime_setProfLabel
func setProfLabel(unsafe.Pointer)

type label struct {
	pprofList []struct{ key, value string } // layout of an empty pprof label map
	magic     uint64
	g         *G
}

const labelMagic = 0x696e746c76_6c6162

func setLabel(l *label) { setProfLabel(unsafe.Pointer(l)) }

// labeled returns the controlled goroutine whose label the calling
// goroutine carries, or nil.
func labeled() *G {
	p := getProfLabel()
	if p == nil {
		return nil
	}
	l := (*label)(p)
	if l.magic != labelMagic {
		return nil
	}
	return l.g
}
