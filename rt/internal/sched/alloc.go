package sched

import (
	"runtime"
	"slices"
)

// The program can read the allocator's counters (runtime.ReadMemStats,
// testing.AllocsPerRun), which count the tool's own allocations too: the
// model of an object the program touches for the first time, a
// goroutine's, a channel's. Once the program has read them in an
// iteration, each piece of the tool's work that allocates is measured
// with the allocator's exact counters (toolBegin, toolEnd), and package
// rt subtracts the sum from what the program reads (ToolAllocs). The
// measuring is costly (a ReadMemStats stops the world for some
// microseconds), so it happens only in iterations whose program reads
// the counters, and only around work that allocates.
//
// Every goroutine but the one running is parked inside the tool, in the
// middle of an operation: when the program starts watching, the rest of
// those operations is the tool's work too. From the second iteration of
// an exploration whose program read the counters, every operation keeps
// the depth of the tool's work (toolTrack), so that a goroutine parked
// before the first reading resumes measured (toolResume). In the first
// iteration the operations entered before the reading are not measured
// as a whole, only the pieces of them that allocate in the tool's own
// structures: a slice the tool grows (push, reserve), a model it makes,
// the strategy's work.

// allocCount is a reading of the allocator's counters.
type allocCount struct{ objects, bytes uint64 }

func readAllocs() allocCount {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return allocCount{m.Mallocs, m.TotalAlloc}
}

// toolBegin starts a piece of the tool's work that may allocate. Pieces
// nest; the outermost is measured.
func (it *Iteration) toolBegin() {
	it.toolDepth++
	if it.memWatch {
		it.toolMarkOuter()
	}
}

// toolMarkOuter reads the counters where the outermost piece begins.
func (it *Iteration) toolMarkOuter() {
	if it.toolDepth == 1 {
		it.toolMark = readAllocs()
	}
}

// toolEnd ends the piece toolBegin started.
func (it *Iteration) toolEnd() {
	if it.toolDepth > 0 {
		it.toolDepth--
		if it.memWatch {
			it.toolCountOuter()
		}
	}
}

// toolCountOuter adds what the outermost piece allocated, where it ends.
func (it *Iteration) toolCountOuter() {
	if it.toolDepth == 0 {
		a := readAllocs()
		it.toolAllocs.objects += a.objects - it.toolMark.objects
		it.toolAllocs.bytes += a.bytes - it.toolMark.bytes
	}
}

// growing reports whether appending to a slice of length n and capacity
// c allocates while the program watches the counters.
func (it *Iteration) growing(n, c int) bool { return it.memWatch && n == c }

// push appends v to s, the tool's own slice; growing it is a piece of
// the tool's work to measure while the program watches the counters.
func push[T any](it *Iteration, s []T, v T) []T {
	if len(s) < cap(s) {
		return append(s, v)
	}
	return pushGrow(it, s, v)
}

// pushGrow is push where s grows.
func pushGrow[T any](it *Iteration, s []T, v T) []T {
	if !it.memWatch {
		return append(s, v)
	}
	it.toolBegin()
	s = append(s, v)
	it.toolEnd()
	return s
}

// reserve makes room in s, the tool's own slice, for n more elements
// while the program watches the counters, measured as the tool's work; the
// appends that follow then allocate nothing.
func reserve[T any](it *Iteration, s []T, n int) []T {
	if !it.memWatch || len(s)+n <= cap(s) {
		return s
	}
	it.toolBegin()
	s = slices.Grow(s, n)
	it.toolEnd()
	return s
}

// ToolBegin starts a piece of the tool's work that may allocate (package
// rt's: a channel's value storage); ToolEnd ends it.
func (g *G) ToolBegin() { g.it.toolBegin() }

// ToolEnd ends the piece of work ToolBegin started.
func (g *G) ToolEnd() { g.it.toolEnd() }

// Growing reports whether appending to a slice of length n and capacity
// c allocates while the program watches the allocator's counters: the
// append is then a piece of the tool's work to measure.
func (g *G) Growing(n, c int) bool { return g.it.growing(n, c) }

// ToolAllocs returns how many objects and bytes the tool allocated in
// g's iteration since the program first read the allocator's counters,
// and starts measuring if it had not.
func (g *G) ToolAllocs() (objects, bytes uint64) {
	if !g.it.memWatch && g.it.toolDepth > 0 {
		// The program reads the counters from code the tool runs (a
		// cleanup, a Once's function): the piece open is measured from
		// here.
		g.it.toolMark = readAllocs()
	}
	g.it.memWatch = true
	g.it.toolTrack = true
	g.it.x.memRead = true
	return g.it.toolAllocs.objects, g.it.toolAllocs.bytes
}

// toolPause ends the measuring of the tool's work before the running
// goroutine hands over (the next one runs the program's code, or tool
// work it measures itself) and returns what toolResume needs to take it
// up again once the goroutine runs again.
func (it *Iteration) toolPause() int {
	d := it.toolDepth
	if d > 0 {
		it.toolEndAll()
	}
	return d
}

// toolEndAll ends every piece open.
//
//go:noinline
func (it *Iteration) toolEndAll() {
	it.toolDepth = 1
	it.toolEnd()
}

// toolResume resumes the measuring toolPause ended.
func (it *Iteration) toolResume(d int) {
	if d > 0 {
		it.toolBegin()
		it.toolDepth = d
	}
}
