package rt_test

import (
	"os"
	"runtime"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// The allocator's counters as the program reads them inside an
// exploration count what the same code allocates natively: the tool's own
// allocations (the model of a word, a lock or a channel touched for the
// first time, of a goroutine, the schedule's records) do not show. Each
// operation below is run natively and under every schedule of a small
// exploration, measured by testing.AllocsPerRun's method and by one pair
// of ReadMemStats around one run.

var (
	allocSink  *int
	allocMu    sync.Mutex
	allocChan  = make(chan int, 1)
	allocCount int
)

var allocOps = []struct {
	name   string
	op     func()
	native func() // the plain Go op stands for, when rt's native path differs (rt.Select uses reflect)
}{
	{name: "new", op: func() { allocSink = new(int) }},
	{name: "write of a new word", op: func() { p := new(int); rt.Write(p, 0); *p = 1; allocSink = p }},
	{name: "new mutex", op: func() { var mu sync.Mutex; rt.Lock(&mu, 0); rt.Unlock(&mu, 0) }},
	{name: "known mutex", op: func() {
		rt.Lock(&allocMu, 0)
		rt.Write(&allocCount, 0)
		allocCount++
		rt.Unlock(&allocMu, 0)
	}},
	{name: "new channel", op: func() { c := rt.MakeChan[int](1, 0); rt.Send(c, 1, 0); rt.Recv(c, 0) }},
	{name: "known channel", op: func() { rt.Send(allocChan, 1, 0); rt.Recv(allocChan, 0) }},
	{name: "go", op: func() {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(c, 1, 0) }, 0)
		rt.Recv(c, 0)
	}},
	{name: "WaitGroup", op: func() {
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 1, 0)
		rt.Go(func() { rt.WGDone(&wg, 0) }, 0)
		rt.WGWait(&wg, 0)
	}},
	{name: "select", op: func() {
		c, d := rt.MakeChan[int](0, 0), rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(d, 2, 0) }, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv(sel, c)
		rt.SelectRecv(sel, d)
		sel.Do(false)
		rt.SelectValue[int](sel)
	}, native: func() {
		c, d := make(chan int), make(chan int)
		go func() { d <- 2 }()
		select {
		case <-c:
		case <-d:
		}
	}},
}

// nativeOf returns the plain Go operation op stands for.
func nativeOf(op, native func()) func() {
	if native != nil {
		return native
	}
	return op
}

func TestAllocsPerRunAsNative(t *testing.T) {
	for _, c := range allocOps {
		want := testing.AllocsPerRun(50, nativeOf(c.op, c.native))
		_, err := rt.Explore(t.Name(), rt.Options{Schedules: 20, ScheduleDir: "-"}, func() {
			if got := rt.AllocsPerRun(50, c.op, 0); got != want {
				t.Errorf("%s: AllocsPerRun %v inside an exploration, %v natively", c.name, got, want)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// window returns the allocations ReadMemStats counts around one call of
// op.
func window(read func(*runtime.MemStats), op func()) uint64 {
	var a, b runtime.MemStats
	read(&a)
	op()
	read(&b)
	return b.Mallocs - a.Mallocs
}

func TestReadMemStatsAsNative(t *testing.T) {
	// On one processor, as an exploring test process runs
	// (sched.LowerProcs): with idle processors, restarting the world
	// after a read of the counters may start a thread, and the runtime
	// allocates its structures (7 objects) between two reads, natively
	// as under the tool, where the tool's own reads make it likelier.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// With goroutines handed over through channels, a parked goroutine
	// may take a runtime structure from the heap while the next one runs
	// the program: an allocation the program then counts.
	slack := uint64(0)
	if os.Getenv("INTERLEAVE_HANDOFF") == "channel" {
		slack = 1
	}
	for _, c := range allocOps {
		// Natively the first runs may allocate more (a goroutine's
		// structure before the runtime has one to reuse): the range of
		// ten runs.
		lo, hi := ^uint64(0), uint64(0)
		for i := 0; i < 10; i++ {
			n := window(runtime.ReadMemStats, nativeOf(c.op, c.native))
			lo, hi = min(lo, n), max(hi, n)
		}
		read := func(m *runtime.MemStats) { rt.ReadMemStats(m, 0) }
		_, err := rt.Explore(t.Name(), rt.Options{Schedules: 20, ScheduleDir: "-"}, func() {
			if got := window(read, c.op); got < lo || got > hi+slack {
				t.Errorf("%s: ReadMemStats counts %d allocations inside an exploration, %d to %d natively", c.name, got, lo, hi)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A test that reads the counters first thing sees only its own
// allocations, also in the first schedule, when the tool's structures are
// new.
func TestReadMemStatsFirstSchedule(t *testing.T) {
	var got []uint64
	_, err := rt.Explore(t.Name(), rt.Options{Schedules: 3, ScheduleDir: "-"}, func() {
		var a, b runtime.MemStats
		rt.ReadMemStats(&a, 0)
		p := new(int)
		rt.Write(p, 0)
		*p = 1
		allocSink = p
		rt.ReadMemStats(&b, 0)
		got = append(got, b.Mallocs-a.Mallocs)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range got {
		if n != 1 {
			t.Errorf("schedule %d: %d allocations for one new(int), want 1", i+1, n)
		}
	}
}
