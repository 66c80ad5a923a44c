package fidelity

import (
	"runtime"
	"sync"
	"testing"
)

// The allocator's counters count the program's allocations, not the
// tool's.

var (
	sink    *[4]int
	intSink *int
	counter int
	mu      sync.Mutex
	results = make(chan int, 1)
)

func TestReadMemStatsNewArray(t *testing.T) {
	// Other goroutines of the process (the runtime's, the testing
	// package's) may allocate between the two readings on a loaded
	// machine; the fewest of several tries is the allocation's own count,
	// as testing.AllocsPerRun runs on one processor for the same reason.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	fewest := ^uint64(0)
	for range 10 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		p := new([4]int)
		p[0], p[3] = 1, 2
		sink = p
		runtime.ReadMemStats(&b)
		fewest = min(fewest, b.Mallocs-a.Mallocs)
	}
	if fewest != 1 {
		t.Fatalf("%d allocations for one new([4]int)", fewest)
	}
}

func TestAllocsPerRunZero(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		mu.Lock()
		counter++
		mu.Unlock()
		results <- counter
		<-results
	})
	if n != 0 {
		t.Fatalf("%v allocations per run of a lock, an increment and a channel round trip", n)
	}
}

func TestAllocsPerRunGoroutine(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		done := make(chan bool)
		go func() { done <- true }()
		<-done
	})
	// A channel and the goroutine's function value.
	if n != 2 {
		t.Fatalf("%v allocations per run of a goroutine and a channel", n)
	}
}

func TestReadMemStatsPausedParallelSubtest(t *testing.T) {
	// A cache library's test: a parallel subtest waits for its parent
	// while the parent counts the allocations of one new(int), on one
	// processor so that no other goroutine of the process allocates. One
	// measurement, the first of the schedule: the subtest's goroutine is
	// inside the tool when the counting starts, and the tool's work it
	// finishes there must not count.
	t.Run("paused", func(t *testing.T) {
		t.Parallel()
	})
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.Mallocs
	intSink = new(int)
	runtime.ReadMemStats(&m)
	if n := m.Mallocs - before; n != 1 {
		t.Fatalf("%d allocations for one new(int)", n)
	}
}
