package sched

import "runtime"

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
	if !it.memWatch {
		return
	}
	if it.toolDepth == 0 {
		it.toolMark = readAllocs()
	}
	it.toolDepth++
}

// toolEnd ends the piece toolBegin started.
func (it *Iteration) toolEnd() {
	if !it.memWatch || it.toolDepth == 0 {
		return
	}
	it.toolDepth--
	if it.toolDepth == 0 {
		a := readAllocs()
		it.toolAllocs.objects += a.objects - it.toolMark.objects
		it.toolAllocs.bytes += a.bytes - it.toolMark.bytes
	}
}

// growing reports whether appending to a slice of length n and capacity
// c allocates while the program watches the counters.
func (it *Iteration) growing(n, c int) bool { return it.memWatch && n == c }

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
	g.it.memWatch = true
	return g.it.toolAllocs.objects, g.it.toolAllocs.bytes
}

// toolPause ends the measuring of the tool's work before the running
// goroutine hands over (the next one runs the program's code, or tool
// work it measures itself) and returns what toolResume needs to take it
// up again once the goroutine runs again.
func (it *Iteration) toolPause() int {
	d := it.toolDepth
	if d > 0 {
		it.toolDepth = 1
		it.toolEnd()
	}
	return d
}

// toolResume resumes the measuring toolPause ended.
func (it *Iteration) toolResume(d int) {
	if d > 0 {
		it.toolBegin()
		it.toolDepth = d
	}
}
