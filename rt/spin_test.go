package rt_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// sleepingSpinner: one goroutine polls a channel (select with default)
// until the test, after a sleep, closes it. In Go it always ends: real
// time passes while the poller spins, so the sleeper wakes.
func sleepingSpinner() {
	stop, done := rt.MakeChan[struct{}](0, 0), rt.MakeChan[struct{}](0, 0)
	rt.Go(func() {
		defer rt.Close(done, 0)
		for {
			sel := rt.SelectStart(0)
			rt.SelectRecv[struct{}](sel, stop)
			if sel.Do(true) == 0 {
				return
			}
		}
	}, 0)
	rt.Sleep(time.Millisecond, 0)
	rt.Close(stop, 0)
	rt.Recv(done, 0)
}

// sleepingAtomicSpinner is the same with a loop that spins on an atomic
// load.
func sleepingAtomicSpinner() {
	var stop int32
	done := rt.MakeChan[struct{}](0, 0)
	rt.Go(func() {
		defer rt.Close(done, 0)
		for rt.AtomicLoadInt32(&stop, 0) == 0 {
		}
	}, 0)
	rt.Sleep(time.Millisecond, 0)
	rt.AtomicStoreInt32(&stop, 1, 0)
	rt.Recv(done, 0)
}

func TestSleepingSpinnerIsNoLivelock(t *testing.T) {
	for _, body := range []struct {
		name string
		f    func()
	}{{"select", sleepingSpinner}, {"atomic", sleepingAtomicSpinner}} {
		for _, strat := range []string{"random", "pct", "dfs"} {
			for _, timers := range []string{"eager", "idle"} {
				rep, err := rt.Explore("Spinner", rt.Options{Strategy: strat, Timers: timers, Schedules: 20, ScheduleDir: "-"}, body.f)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Kind != "" {
					t.Errorf("%s, %s, -timers=%s: %s after %d schedules\n%s", body.name, strat, timers, rep.Kind, rep.Schedules, rep.Text)
				}
			}
		}
	}
}

func TestDeadlineAfterSleepHasPassed(t *testing.T) {
	// Code takes time to run: after sleeping exactly until a deadline,
	// the deadline has passed, as on any real machine (a cache entry with
	// a TTL has expired, a circuit breaker's cool-down is over).
	expect(t, outcomes(t, rt.Options{}, func() string {
		type entry struct {
			v       int
			expires time.Time
		}
		var mu sync.Mutex
		cache := map[string]entry{}
		set := func(k string, v int, ttl time.Duration) {
			rt.Lock(&mu, 0)
			cache[k] = entry{v, rt.Now(0).Add(ttl)}
			rt.Unlock(&mu, 0)
		}
		get := func(k string) (int, bool) {
			rt.Lock(&mu, 0)
			defer rt.Unlock(&mu, 0)
			e, ok := cache[k]
			if !ok || rt.Now(0).After(e.expires) {
				return 0, false
			}
			return e.v, true
		}
		done := rt.MakeChan[struct{}](0, 0)
		rt.Go(func() { set("k", 1, 10*time.Millisecond); rt.Close(done, 0) }, 0)
		rt.Recv(done, 0)
		_, fresh := get("k")
		rt.Sleep(10*time.Millisecond, 0)
		_, stale := get("k")
		start := rt.Now(0)
		return fmt.Sprint(fresh, stale, rt.Since(start, 0) > 0)
	}), "true false true")
}

func TestLongRunIsNoLivelock(t *testing.T) {
	// Two goroutines share a cache for more than a million scheduling
	// points; every operation is a lock handoff or a write, so the run is
	// long, not a livelock.
	rep, err := rt.Explore("Long", rt.Options{Schedules: 1, ScheduleDir: "-"}, func() {
		var mu sync.Mutex
		cache := map[int]int{}
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			rt.WGGo(&wg, func() {
				for i := 0; i < 200000; i++ {
					rt.Lock(&mu, 0)
					rt.Write(&cache, 0)
					cache[i%100] = i
					rt.Unlock(&mu, 0)
				}
			}, 0)
		}
		rt.WGWait(&wg, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("%s:\n%.2000s", rep.Kind, rep.Text)
	}
}

func TestScanningIsNoLivelock(t *testing.T) {
	// A goroutine that reads many locations without writing makes
	// progress: each read is new; a bound of 1000 points without progress
	// is not reached by reading 5000 of them. One that reads the same 200
	// locations over and over, counting its passes in a local variable,
	// ends too: it polls nothing new after its first pass, but too many
	// locations for a spin loop (xsync's parallel loader, ten million
	// loads of 100 keys).
	for _, c := range []struct{ locations, passes int }{{5000, 1}, {200, 20}} {
		vars := make([]int, c.locations)
		rep, err := rt.Explore("Scan", rt.Options{Schedules: 3, MaxSteps: 1000, ScheduleDir: "-"}, func() {
			sum := 0
			for pass := 0; pass < c.passes; pass++ {
				for i := range vars {
					rt.Read(&vars[i], 0)
					sum += vars[i]
				}
			}
			_ = sum
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "" {
			t.Fatalf("%d passes over %d locations: %s:\n%.2000s", c.passes, c.locations, rep.Kind, rep.Text)
		}
	}
}

func TestLivelockNeedsEvidence(t *testing.T) {
	// A goroutine spinning on a flag nobody will set, while the others
	// are blocked: it polls the same location without progress, and the
	// report names it.
	// Alone, it gets 8 times the bound.
	rep, err := rt.Explore("Spin", rt.Options{Strategy: "pct", Schedules: 5, MaxSteps: 100000, ScheduleDir: "-"}, func() {
		var flag int32
		block := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Recv(block, 0) }, 0)
		for rt.AtomicLoadInt32(&flag, 0) == 0 {
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "livelock" || !strings.Contains(rep.Message, "goroutine 1 kept polling for 800001 scheduling points, alone") {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
	// Two goroutines that spin, each waiting for the other's flag, are
	// reported at the bound itself.
	rep, err = rt.Explore("Spin2", rt.Options{Strategy: "pct", Schedules: 5, MaxSteps: 100000, ScheduleDir: "-"}, func() {
		var a, b int32
		rt.Go(func() {
			for rt.AtomicLoadInt32(&a, 0) == 0 {
			}
		}, 0)
		for rt.AtomicLoadInt32(&b, 0) == 0 {
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "livelock" || !strings.Contains(rep.Message, "kept polling for 100001 scheduling points while") {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
}

func TestLongLoopAloneIsNoLivelock(t *testing.T) {
	// A test's loop of many cache reads under a lock, in one goroutine:
	// as quiet as a spin (the same lock, the same map entry), but its own
	// count ends it. 5 times the bound passes.
	rep, err := rt.Explore("Gets", rt.Options{Schedules: 3, MaxSteps: 10000, ScheduleDir: "-"}, func() {
		var mu sync.Mutex
		v := 1
		sum := 0
		for i := 0; i < 5*10000/3; i++ {
			rt.Lock(&mu, 0)
			rt.Read(&v, 0)
			sum += v
			rt.Unlock(&mu, 0)
		}
		_ = sum
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("%s:\n%.2000s", rep.Kind, rep.Text)
	}
}

// spinners starts n goroutines that each poll a flag nobody sets, at most
// rounds times (for ever with rounds < 0), and waits for them.
func spinners(n, rounds int) {
	var flag int32
	var wg sync.WaitGroup
	rt.WGAdd(&wg, n, 0)
	for k := 0; k < n; k++ {
		rt.Go(func() {
			for i := 0; i != rounds && rt.AtomicLoadInt32(&flag, 0) == 0; i++ {
				rt.Gosched(0)
			}
			rt.WGAdd(&wg, -1, 0)
		}, 0)
	}
	rt.WGWait(&wg, 0)
}

func TestManyLoopsAreNoLivelock(t *testing.T) {
	// Forty goroutines that each poll a full buffer a thousand times
	// (otter's TestStriped_Add: two hundred): 80,000 points without
	// progress in all, eight times the bound, but a twentieth of it each.
	rep, err := rt.Explore("Loops", rt.Options{Schedules: 2, MaxSteps: 10000, ScheduleDir: "-"}, func() { spinners(40, 1000) })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
	// The same goroutines spinning for ever: a livelock, at twenty times
	// the bound, and the report says why.
	rep, err = rt.Explore("Spins", rt.Options{Schedules: 2, MaxSteps: 10000, ScheduleDir: "-"}, func() { spinners(40, -1) })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "livelock" || !strings.Contains(rep.Message, "kept polling for 200001 scheduling points, shared by 40 goroutines (the bound is 20 times -steps") {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
}

func TestSpinningAfterTheTestIsALeak(t *testing.T) {
	// A goroutine left spinning on a flag nobody will set once the test
	// returned (ants' TestMaxBlockingSubmit leaves nine): the test is
	// over, the goroutine outlives it, as goleak would say.
	rep, err := rt.Explore("SpinAfter", rt.Options{Schedules: 3, LeaksAll: true, MaxSteps: 100000, ScheduleDir: "-"}, func() {
		var flag int32
		rt.Go(func() {
			for rt.AtomicLoadInt32(&flag, 0) == 0 {
				rt.Gosched(0)
			}
		}, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "goroutine leak" || !strings.Contains(rep.Message, "still running after the test returned: goroutine 2 kept polling") {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
}

// spawningPoller polls in a loop (select with default) and starts a new
// goroutine on every turn, each blocked until the end, while the test
// sleeps for an hour.
func spawningPoller() {
	stop, block := rt.MakeChan[struct{}](0, 0), rt.MakeChan[struct{}](0, 0)
	rt.Go(func() {
		for {
			sel := rt.SelectStart(0)
			rt.SelectRecv[struct{}](sel, stop)
			if sel.Do(true) == 0 {
				return
			}
			rt.Go(func() { rt.Recv(block, 0) }, 0)
		}
	}, 0)
	rt.Sleep(time.Hour, 0)
	rt.Close(stop, 0)
	rt.Close(block, 0)
}

func TestLiveGoroutinesAreBounded(t *testing.T) {
	for _, strat := range []string{"random", "pct"} {
		for _, timers := range []string{"stall", "idle"} {
			rep, err := rt.Explore("Spawner", rt.Options{Strategy: strat, Timers: timers, MaxGoroutines: 1000, ScheduleDir: "-"}, spawningPoller)
			if err != nil {
				t.Fatal(err)
			}
			// On the first schedule, the test is not explored: a bound
			// of the tool is no bug.
			if rep.Kind != "" || !strings.Contains(rep.NotExplored, "-goroutines raises it") {
				t.Errorf("%s, -timers=%s: %s: %s; not explored: %q", strat, timers, rep.Kind, rep.Message, rep.NotExplored)
			}
		}
	}
}

func TestBudgetBoundsAnIteration(t *testing.T) {
	// A first schedule that outlasts the budget ends in time, and the test
	// is not explored (not a finding); a later one is dropped and the
	// exploration passes.
	start := time.Now()
	rep, err := rt.Explore("Spawner", rt.Options{Budget: 300 * time.Millisecond, MaxSteps: 1 << 40, ScheduleDir: "-"}, func() {
		var n int
		for {
			rt.Write(&n, 0)
			n++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || !strings.Contains(rep.NotExplored, "still running when the budget of 300ms ran out") || !strings.Contains(rep.NotExplored, "-budget raises it") {
		t.Fatalf("%s: %s; not explored: %q", rep.Kind, rep.Message, rep.NotExplored)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the exploration took %v with a budget of 300ms", d)
	}
	first := true
	rep, err = rt.Explore("Spawner", rt.Options{Budget: 300 * time.Millisecond, ScheduleDir: "-"}, func() {
		if first {
			first = false
			return
		}
		for {
			rt.Gosched(0)
			var n int
			rt.Write(&n, 0)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 1 {
		t.Fatalf("%s after %d schedules: %s", rep.Kind, rep.Schedules, rep.Message)
	}
}

func TestChoicesAreBounded(t *testing.T) {
	// Past the bound on a later schedule (its length depends on the
	// interleaving), a finding, whose schedule holds the choices made; on
	// the first, the test is not explored.
	for _, later := range []bool{true, false} {
		n := 0
		rep, err := rt.Explore("Choices", rt.Options{MaxChoices: 5000, ScheduleDir: "-"}, func() {
			if n++; later && n == 1 {
				return
			}
			var n int32
			rt.Go(func() {
				for {
					rt.AtomicAddInt32(&n, 1, 0)
				}
			}, 0)
			for {
				rt.AtomicAddInt32(&n, 1, 0)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !later {
			if rep.Kind != "" || !strings.Contains(rep.NotExplored, "-choices raises it") {
				t.Fatalf("first schedule: %s: %s; not explored: %q", rep.Kind, rep.Message, rep.NotExplored)
			}
			continue
		}
		if rep.Kind != "resource limit" || !strings.Contains(rep.Message, "-choices raises it") || len(rep.Schedule.Choices) != 5000 {
			t.Fatalf("later schedule: %s: %s", rep.Kind, rep.Message)
		}
	}
}

func TestPendingTimerIsNoLivelock(t *testing.T) {
	// With a livelock bound below the point at which a polled-for timer
	// fires, the spin still waits for the timer.
	rep, err := rt.Explore("Spinner", rt.Options{Strategy: "pct", MaxSteps: 500, Schedules: 5, ScheduleDir: "-"}, sleepingSpinner)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("%s: %s", rep.Kind, rep.Message)
	}
}

func TestTrackedObjectsAreBounded(t *testing.T) {
	// Writing every word of a large buffer makes an object per word: the
	// race detector's memory. Past -objects the schedule ends with a report
	// naming the flag; a buffer within the bound passes.
	write := func(words int) func() {
		return func() {
			buf := make([]uint64, words)
			for i := range buf {
				rt.Write(&buf[i], 0)
				buf[i] = 1
			}
		}
	}
	// On the first schedule, not explored (a bound is no bug).
	rep, err := rt.Explore("Writer", rt.Options{Schedules: 1, MaxObjects: 10000, ScheduleDir: "-"}, write(20000))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || !strings.Contains(rep.NotExplored, "-objects raises it") {
		t.Errorf("%s: %s; not explored: %q", rep.Kind, rep.Message, rep.NotExplored)
	}
	// On a later schedule, a finding.
	n := 0
	rep, err = rt.Explore("Writer", rt.Options{Schedules: 2, MaxObjects: 10000, ScheduleDir: "-"}, func() {
		if n++; n == 1 {
			return
		}
		write(20000)()
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "resource limit" || !strings.Contains(rep.Message, "-objects raises it") {
		t.Fatalf("later schedule: %s: %s", rep.Kind, rep.Message)
	}
	// Its replay, a run of that schedule alone, is the same limit, not
	// a first schedule not explored.
	again, err := rt.Explore("Writer", rt.Options{Strategy: "replay", Replay: rep.Schedule, MaxObjects: 10000, ScheduleDir: "-"}, func() { write(20000)() })
	if err != nil {
		t.Fatal(err)
	}
	if again.Kind != "resource limit" || again.NotExplored != "" {
		t.Errorf("replay of the later schedule: %q; not explored: %q", again.Kind, again.NotExplored)
	}
	rep, err = rt.Explore("Writer", rt.Options{Schedules: 1, MaxObjects: 10000, ScheduleDir: "-"}, write(5000))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Errorf("%s: %s", rep.Kind, rep.Message)
	}
}
