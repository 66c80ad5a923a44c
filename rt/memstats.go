package rt

import "runtime"

// The allocator's counters as the program reads them: inside an
// exploration, less what the tool allocated for its model since the
// program first read them in the iteration (sched/alloc.go). The counts
// of allocations and of allocated bytes are corrected (Mallocs,
// TotalAlloc) and so is the live heap (HeapAlloc, Alloc, HeapObjects),
// as if the tool's allocations were still live: the model lives as long
// as the iteration.

// ReadMemStats replaces runtime.ReadMemStats.
func ReadMemStats(m *runtime.MemStats, s Site) {
	g := cur()
	if g == nil {
		runtime.ReadMemStats(m)
		return
	}
	objects, bytes := g.ToolAllocs()
	runtime.ReadMemStats(m)
	m.Mallocs -= min(objects, m.Mallocs)
	m.TotalAlloc -= min(bytes, m.TotalAlloc)
	m.HeapAlloc -= min(bytes, m.HeapAlloc)
	m.Alloc = m.HeapAlloc
	m.HeapObjects -= min(objects, m.HeapObjects)
}

// AllocsPerRun replaces testing.AllocsPerRun: the same measure, of the
// counters as the program reads them. Inside an exploration it leaves
// GOMAXPROCS alone: only one goroutine of the program runs at a time
// anyway, and changing it empties the runtime's per-P caches, which the
// tool's own goroutines then refill from the heap while the program
// measures.
func AllocsPerRun(runs int, f func(), s Site) (avg float64) {
	if cur() == nil {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	f() // warm up
	var m runtime.MemStats
	ReadMemStats(&m, s)
	mallocs := 0 - m.Mallocs
	for i := 0; i < runs; i++ {
		f()
	}
	ReadMemStats(&m, s)
	mallocs += m.Mallocs
	return float64(mallocs / uint64(runs))
}
