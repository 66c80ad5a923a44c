package rt

import (
	"context"
	"runtime/pprof"
)

// The runtime finds a controlled goroutine through its profiler labels
// (see package sched), which pprof.Do and pprof.SetGoroutineLabels
// replace: after them the goroutine would run uncontrolled, and a schedule
// through it would not replay. Inside an exploration the labels go into
// the context only; outside, the functions are pprof's.

// PprofDo replaces pprof.Do: inside an exploration f runs with the labels
// added to ctx, and the goroutine keeps its labels.
func PprofDo(ctx context.Context, labels pprof.LabelSet, f func(context.Context)) {
	if cur() != nil {
		f(pprof.WithLabels(ctx, labels))
		return
	}
	pprof.Do(ctx, labels, f)
}

// PprofSetGoroutineLabels replaces pprof.SetGoroutineLabels; inside an
// exploration it does nothing.
func PprofSetGoroutineLabels(ctx context.Context) {
	if cur() != nil {
		return
	}
	pprof.SetGoroutineLabels(ctx)
}
