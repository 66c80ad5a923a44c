package rt_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
)

// Bug kernels written against the rt API directly, each with a fixed twin
// on which nothing may ever be reported. Every buggy kernel must be found
// by random and by PCT within kernelBudget schedules, with each of several
// seeds (and by coverage, random with Stoller's coverage heuristic, and by
// dpor, which misses what the conflict relation does not see), and
// every finding must replay to the same finding and event hash.

const kernelBudget = 2000

type kernel struct {
	name  string
	kind  string // finding kind that counts as detection
	buggy func()
	fixed func()
}

var kernels = []kernel{
	{"LockOrderInversion", "deadlock", lockOrder(false), lockOrder(true)},
	{"DoubleLockThroughCall", "deadlock", doubleLock(false), doubleLock(true)},
	{"RWMutexReadWriteRead", "deadlock", readWriteRead(false), readWriteRead(true)},
	{"UnsyncCounter", "data race", counter(false), counter(true)},
	{"CheckThenAct", "panic", checkThenAct(false), checkThenAct(true)},
	{"LeakAfterTimeout", "goroutine leak", leakAfterTimeout(false), leakAfterTimeout(true)},
	{"DoubleClose", "data race", doubleClose(false), doubleClose(true)}, // two unordered closes race before the second panics
	{"WaitGroupAddAfterWait", "data race", wgAddInside(false), wgAddInside(true)},
	{"LostSignal", "deadlock", lostSignal(false), lostSignal(true)},
	{"BusyWaitDefault", "livelock", busyWait(false), busyWait(true)},
	{"CancelRacesWork", "panic", cancelRace(false), cancelRace(true)},
	{"NegativeWaitGroup", "panic", negativeWG(false), negativeWG(true)},
}

// lockOrder: two goroutines take two mutexes in opposite orders.
func lockOrder(fixed bool) func() {
	return func() {
		var a, b sync.Mutex
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 2, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			rt.Lock(&a, 0)
			rt.Lock(&b, 0)
			rt.Unlock(&b, 0)
			rt.Unlock(&a, 0)
		}, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			first, second := &b, &a
			if fixed {
				first, second = &a, &b
			}
			rt.Lock(first, 0)
			rt.Lock(second, 0)
			rt.Unlock(second, 0)
			rt.Unlock(first, 0)
		}, 0)
		rt.WGWait(&wg, 0)
	}
}

// doubleLock: a method holding the lock calls another that takes it, on
// a path taken only when a concurrent update is visible.
func doubleLock(fixed bool) func() {
	return func() {
		var mu sync.Mutex
		var dirty atomic.Bool
		size := func() int {
			rt.Lock(&mu, 0)
			defer rt.Unlock(&mu, 0)
			return 1
		}
		flush := func() {
			rt.Lock(&mu, 0)
			if rt.BoolLoad(&dirty, 0) {
				if fixed {
					rt.Unlock(&mu, 0)
					_ = size()
					return
				}
				_ = size() // takes mu again
			}
			rt.Unlock(&mu, 0)
		}
		done := rt.MakeChan[bool](0, 0)
		rt.Go(func() { rt.BoolStore(&dirty, true, 0); rt.Send(done, true, 0) }, 0)
		flush()
		rt.Recv(done, 0)
	}
}

// readWriteRead: a reader re-acquires the read lock while a writer waits;
// writer preference blocks the second RLock.
func readWriteRead(fixed bool) func() {
	return func() {
		var rw sync.RWMutex
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 2, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			rt.RLock(&rw, 0)
			if !fixed {
				rt.RLock(&rw, 0) // recursive read lock
				rt.RUnlock(&rw, 0)
			}
			rt.RUnlock(&rw, 0)
		}, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			rt.RWLock(&rw, 0)
			rt.RWUnlock(&rw, 0)
		}, 0)
		rt.WGWait(&wg, 0)
	}
}

// counter: two goroutines increment a shared counter.
func counter(fixed bool) func() {
	return func() { countTo2(fixed) }
}

// countTo2 has two goroutines increment a counter, under a mutex when
// locked, and returns the final count.
func countTo2(locked bool) int {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	inc := func() {
		defer rt.WGDone(&wg, 0)
		if locked {
			rt.Lock(&mu, 0)
			defer rt.Unlock(&mu, 0)
		}
		rt.Read(&n, 0)
		v := n
		rt.Write(&n, 0)
		n = v + 1
	}
	rt.WGAdd(&wg, 2, 0)
	rt.Go(inc, 0)
	rt.Go(inc, 0)
	rt.WGWait(&wg, 0)
	return n
}

// checkThenAct: each goroutine checks a map entry under the lock, then
// acts on it in a second critical section (an atomicity violation, not a
// data race).
func checkThenAct(fixed bool) func() {
	return func() {
		var mu sync.Mutex
		m := map[string]*int{"k": new(int)}
		var wg sync.WaitGroup
		user := func() {
			defer rt.WGDone(&wg, 0)
			rt.Lock(&mu, 0)
			p, ok := m["k"]
			if !fixed {
				rt.Unlock(&mu, 0)
				rt.Lock(&mu, 0)
				p = m["k"]
			}
			if ok {
				*p++ // nil after the deleter ran in between
			}
			rt.Unlock(&mu, 0)
		}
		rt.WGAdd(&wg, 2, 0)
		rt.Go(user, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			rt.Lock(&mu, 0)
			m["k"] = nil
			delete(m, "k")
			rt.Unlock(&mu, 0)
		}, 0)
		rt.WGWait(&wg, 0)
	}
}

// leakAfterTimeout: the worker's result send blocks forever once the
// caller gave up waiting.
func leakAfterTimeout(fixed bool) func() {
	return func() {
		size := 0
		if fixed {
			size = 1
		}
		res := rt.MakeChan[int](size, 0)
		rt.Go(func() {
			rt.Sleep(5*time.Millisecond, 0)
			rt.Send(res, 42, 0)
		}, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, res)
		rt.SelectRecv[time.Time](sel, rt.After(10*time.Millisecond, 0))
		sel.Do(false)
	}
}

// doubleClose: two shutdown paths both close the quit channel.
func doubleClose(fixed bool) func() {
	return func() {
		quit := rt.MakeChan[struct{}](0, 0)
		var once sync.Once
		var mu sync.Mutex
		closed := false
		shutdown := func() {
			if fixed {
				rt.OnceDo(&once, func() { rt.Close(quit, 0) }, 0)
				return
			}
			rt.Lock(&mu, 0)
			c := closed
			rt.Unlock(&mu, 0)
			if !c {
				rt.Close(quit, 0)
				rt.Lock(&mu, 0)
				closed = true
				rt.Unlock(&mu, 0)
			}
		}
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 2, 0)
		rt.Go(func() { defer rt.WGDone(&wg, 0); shutdown() }, 0)
		rt.Go(func() { defer rt.WGDone(&wg, 0); shutdown() }, 0)
		rt.WGWait(&wg, 0)
	}
}

// wgAddInside: Add inside the goroutine races with Wait, so Wait can
// return before the work is done and the result is read unsynchronized.
func wgAddInside(fixed bool) func() {
	return func() {
		var wg sync.WaitGroup
		result := 0
		if fixed {
			rt.WGAdd(&wg, 1, 0)
		}
		rt.Go(func() {
			if !fixed {
				rt.WGAdd(&wg, 1, 0)
			}
			defer rt.WGDone(&wg, 0)
			rt.Write(&result, 0)
			result = 1
		}, 0)
		rt.WGWait(&wg, 0)
		rt.Read(&result, 0)
		_ = result
	}
}

// lostSignal: the waiter waits without checking the predicate, so a
// Signal sent before it waits is lost.
func lostSignal(fixed bool) func() {
	return func() {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := false
		rt.Go(func() {
			rt.Lock(&mu, 0)
			ready = true
			rt.CondSignal(c, 0)
			rt.Unlock(&mu, 0)
		}, 0)
		rt.Lock(&mu, 0)
		if fixed {
			for !ready {
				rt.CondWait(c, 0)
			}
		} else {
			rt.CondWait(c, 0)
		}
		rt.Unlock(&mu, 0)
	}
}

// busyWait: a select with default spins waiting for a flag that is set
// only after the spinner yields the lock it holds.
func busyWait(fixed bool) func() {
	return func() {
		var mu sync.Mutex
		done := rt.MakeChan[struct{}](0, 0)
		rt.Go(func() {
			rt.Lock(&mu, 0)
			rt.Close(done, 0)
			rt.Unlock(&mu, 0)
		}, 0)
		rt.Lock(&mu, 0)
		for {
			sel := rt.SelectStart(0)
			rt.SelectRecv[struct{}](sel, done)
			if sel.Do(true) == 0 {
				break
			}
			if fixed {
				rt.Unlock(&mu, 0)
				rt.Gosched(0)
				rt.Lock(&mu, 0)
			}
		}
		rt.Unlock(&mu, 0)
	}
}

// cancelRace: the worker checks ctx.Err() and then uses a resource that
// the canceller releases after canceling.
func cancelRace(fixed bool) func() {
	return func() {
		ctx, cancel := rt.WithCancel(context.Background(), 0)
		var mu sync.Mutex
		buf := []int{1}
		done := rt.MakeChan[struct{}](0, 0)
		rt.Go(func() {
			defer rt.Close(done, 0)
			if ctx.Err() != nil {
				return
			}
			rt.Lock(&mu, 0)
			defer rt.Unlock(&mu, 0)
			_ = buf[0] // panics once released
		}, 0)
		cancel()
		if fixed {
			rt.Recv(done, 0)
		}
		rt.Lock(&mu, 0)
		buf = nil
		rt.Unlock(&mu, 0)
		if !fixed {
			rt.Recv(done, 0)
		}
	}
}

// negativeWG: Done is called on an error path and again by the deferred
// call.
func negativeWG(fixed bool) func() {
	return func() {
		var wg sync.WaitGroup
		failed := rt.MakeChan[bool](1, 0)
		rt.WGAdd(&wg, 2, 0)
		work := func(fail bool) {
			defer rt.WGDone(&wg, 0)
			if fail {
				rt.Send(failed, true, 0)
				if !fixed {
					rt.WGDone(&wg, 0)
				}
				return
			}
		}
		rt.Go(func() { work(false) }, 0)
		rt.Go(func() { work(true) }, 0)
		rt.WGWait(&wg, 0)
	}
}

func TestKernelsFound(t *testing.T) {
	for _, k := range kernels {
		for _, strat := range []string{"random", "coverage", "pct", "dpor"} {
			for seed := int64(1); seed <= 3; seed++ {
				if strat == "dpor" && seed > 1 {
					break // systematic: the seed changes nothing
				}
				rep, err := rt.Explore(k.name, rt.Options{Strategy: strat, Seed: seed, Schedules: kernelBudget, MaxSteps: 2000, ScheduleDir: t.TempDir()}, k.buggy)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Kind != k.kind {
					t.Errorf("%s (%s, seed %d): got %q after %d schedules, want %q\n%s", k.name, strat, seed, rep.Kind, rep.Schedules, k.kind, rep.Text)
					continue
				}
				t.Logf("%s (%s, seed %d): %s after %d schedules", k.name, strat, seed, rep.Kind, rep.Schedules)
				checkReplay(t, k.name, rep, k.buggy)
			}
		}
	}
}

func TestKernelsFixedTwinsClean(t *testing.T) {
	for _, k := range kernels {
		for _, strat := range []string{"random", "coverage", "pct", "dfs"} {
			rep, err := rt.Explore(k.name+"Fixed", rt.Options{Strategy: strat, Schedules: kernelBudget, MaxSteps: 2000, ScheduleDir: "-"}, k.fixed)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Kind != "" {
				t.Errorf("%s fixed (%s): false report after %d schedules:\n%s", k.name, strat, rep.Schedules, rep.Text)
			}
		}
	}
}

// checkReplay replays rep's schedule file and expects the same finding and
// event hash.
func checkReplay(t *testing.T, name string, rep *rt.Report, body func()) {
	t.Helper()
	if rep.Schedule == nil || rep.Path == "" {
		t.Errorf("%s: finding without a schedule file", name)
		return
	}
	s, err := wire.ReadSchedule(rep.Path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := rt.Explore(name, rt.Options{Strategy: "replay", Replay: s, ScheduleDir: "-"}, body)
	if err != nil {
		t.Fatal(err)
	}
	if again.Diverged != "" || again.Kind != rep.Kind || again.Schedule.EventHash != rep.Schedule.EventHash {
		t.Errorf("%s: replay gave %q (diverged %q, hash %v), want %q hash %s", name, again.Kind, again.Diverged, again.Schedule, rep.Kind, rep.Schedule.EventHash)
	}
}

func TestSendRacesWithClose(t *testing.T) {
	// A producer sends while the owner closes without waiting for it: a
	// race (Go's race detector reports it too), whatever order they run in.
	rep, err := rt.Explore("SendClose", rt.Options{Strategy: "dfs", ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](1, 0)
		rt.Go(func() {
			defer func() { recover() }()
			rt.Send(c, 1, 0)
		}, 0)
		rt.Close(c, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "data race" || !strings.Contains(rep.Message, "close by goroutine") && !strings.Contains(rep.Message, "send by goroutine") {
		t.Errorf("got %q %q", rep.Kind, rep.Message)
	}
	// Ordered by a WaitGroup: no race.
	rep, _ = rt.Explore("SendWaitClose", rt.Options{Strategy: "dfs", ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](1, 0)
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Send(c, 1, 0) }, 0)
		rt.WGWait(&wg, 0)
		rt.Close(c, 0)
	})
	if rep.Kind != "" {
		t.Errorf("ordered send and close: got %q %q", rep.Kind, rep.Message)
	}
}
