package rt_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"interleave.dev/rt"
)

// Conformance by outcome sets: for each primitive, a small program whose
// complete set of outcomes under exhaustive DFS must equal exactly the set
// the Go specification and runtime allow: no outcome missing, none
// impossible.

// The other systematic strategies must reach exactly the outcomes DFS
// reaches: outcomes runs each of reducing on the same program and fails
// the test on any difference (the soundness check of dpor, and of pcb with
// a bound that covers every schedule; docs/systematic.md).
func outcomes(t *testing.T, opts rt.Options, body func() string) []string {
	t.Helper()
	out := outcomeSet(t, "dfs", opts, body)
	for _, s := range reducing {
		if got := outcomeSet(t, s, opts, body); strings.Join(got, "|") != strings.Join(out, "|") {
			t.Errorf("strategy %s reaches the outcomes %q, dfs %q", s, got, out)
		}
	}
	return out
}

// reducing lists the strategies whose outcome sets must equal DFS's:
// dpor with wakeup trees (its default) and with source sets alone, and
// pcb.
var reducing = []string{"dpor", "dpor/source", "pcb"}

func outcomeSet(t *testing.T, strategy string, opts rt.Options, body func() string) []string {
	t.Helper()
	got := map[string]bool{}
	strategy, opts.DPOR, _ = strings.Cut(strategy, "/")
	opts.Strategy, opts.Schedules, opts.ScheduleDir = strategy, 200000, "-"
	opts.Preemptions = 1000
	rep, err := rt.Explore(t.Name(), opts, func() { got[body()] = true })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("unexpected finding under %s:\n%s", strategy, rep.Text)
	}
	if !rep.Exhausted {
		t.Fatalf("%s did not exhaust the space in %d schedules%s", strategy, rep.Schedules, rep.Diverged)
	}
	var out []string
	for k := range got {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func expect(t *testing.T, got []string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("outcomes %q, want exactly %q", got, want)
	}
}

func TestConformanceUnbufferedTwoSenders(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(c, 1, 0) }, 0)
		rt.Go(func() { rt.Send(c, 2, 0) }, 0)
		return fmt.Sprint(rt.Recv(c, 0), rt.Recv(c, 0))
	}), "1 2", "2 1")
}

func TestConformanceBufferKeepsOrder(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](2, 0)
		rt.Go(func() {
			for i := 1; i <= 3; i++ {
				rt.Send(c, i, 0)
			}
		}, 0)
		return fmt.Sprint(rt.Recv(c, 0), rt.Recv(c, 0), rt.Recv(c, 0))
	}), "1 2 3")
}

func TestConformanceSelectNilChannelNeverReady(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var nilc chan int
		c := rt.MakeChan[int](1, 0)
		rt.Go(func() { rt.Send(c, 5, 0) }, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, nilc)
		rt.SelectSend[int](sel, nilc, 1)
		rt.SelectRecv[int](sel, c)
		i := sel.Do(false)
		v, _ := rt.SelectValue[int](sel)
		return fmt.Sprint(i, v)
	}), "2 5")
}

func TestConformanceSelectDefault(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			sel := rt.SelectStart(0)
			rt.SelectSend[int](sel, c, 1)
			sel.Do(true) // gives up if nobody receives yet
		}, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, c)
		rt.SelectRecv[time.Time](sel, rt.After(time.Millisecond, 0))
		if sel.Do(false) == 0 {
			return "received"
		}
		return "timeout"
	}), "received", "timeout")
}

func TestConformanceSelectBothReady(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		a, b := rt.MakeChan[string](1, 0), rt.MakeChan[string](1, 0)
		rt.Send(a, "a", 0)
		rt.Send(b, "b", 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[string](sel, a)
		rt.SelectRecv[string](sel, b)
		sel.Do(false)
		v, _ := rt.SelectValue[string](sel)
		return v
	}), "a", "b")
}

func TestConformanceCloseDrainsBufferFirst(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		c := rt.MakeChan[int](1, 0)
		rt.Go(func() {
			rt.Send(c, 1, 0)
			rt.Close(c, 0)
		}, 0)
		v1, ok1 := rt.Recv2(c, 0)
		v2, ok2 := rt.Recv2(c, 0)
		return fmt.Sprint(v1, ok1, v2, ok2)
	}), "1 true 0 false")
}

func TestConformanceSendCloseRace(t *testing.T) {
	// The send and the close race (see TestSendRacesWithClose); here only
	// the outcomes matter.
	expect(t, outcomes(t, rt.Options{NoRace: true}, func() string {
		c := rt.MakeChan[int](1, 0)
		var wg sync.WaitGroup
		var res atomic.Value
		rt.WGAdd(&wg, 2, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			defer func() {
				if r := recover(); r != nil {
					res.Store(fmt.Sprint(r))
				}
			}()
			rt.Send(c, 1, 0)
			res.Store("sent")
		}, 0)
		rt.Go(func() { defer rt.WGDone(&wg, 0); rt.Close(c, 0) }, 0)
		rt.WGWait(&wg, 0)
		v, ok := rt.Recv2(c, 0)
		return fmt.Sprint(res.Load(), " ", v, " ", ok)
	}), "sent 1 true", "send on closed channel 0 false")
}

func TestConformanceMutualExclusion(t *testing.T) {
	run := func(locked bool) []string {
		return outcomes(t, rt.Options{NoRace: true}, func() string { return fmt.Sprint(countTo2(locked)) })
	}
	expect(t, run(true), "2")
	expect(t, run(false), "1", "2")
}

func TestConformanceRWMutexReadersShare(t *testing.T) {
	// Two readers may hold the lock together.
	expect(t, outcomes(t, rt.Options{}, func() string {
		var rw sync.RWMutex
		var inside atomic.Int32
		var seen [2]int32
		var wg sync.WaitGroup
		for i := range seen {
			rt.WGGo(&wg, func() {
				rt.RLock(&rw, 0)
				seen[i] = rt.Int32Add(&inside, 1, 0)
				rt.Int32Add(&inside, -1, 0)
				rt.RUnlock(&rw, 0)
			}, 0)
		}
		rt.WGWait(&wg, 0)
		return fmt.Sprint(max(seen[0], seen[1]))
	}), "1", "2")
}

func TestConformanceRWMutexWriterExcludes(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var rw sync.RWMutex
		var inside atomic.Int32
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() {
			rt.RLock(&rw, 0)
			rt.Int32Add(&inside, 1, 0)
			rt.Int32Add(&inside, -1, 0)
			rt.RUnlock(&rw, 0)
		}, 0)
		rt.RWLock(&rw, 0)
		n := rt.Int32Load(&inside, 0)
		rt.RWUnlock(&rw, 0)
		rt.WGWait(&wg, 0)
		return fmt.Sprint(n)
	}), "0")
}

func TestConformanceRWMutexWriterPreference(t *testing.T) {
	// A reader holds the lock and a writer is waiting: a second RLock by
	// the same reader blocks behind the writer (deadlock), which real Go
	// does; without the writer, recursive read locking never blocks.
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 10000, ScheduleDir: "-"}, readWriteRead(false))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "deadlock" {
		t.Fatalf("got %q, want deadlock", rep.Kind)
	}
	expect(t, outcomes(t, rt.Options{}, func() string {
		var rw sync.RWMutex
		rt.RLock(&rw, 0)
		rt.Go(func() { rt.RLock(&rw, 0); rt.RUnlock(&rw, 0) }, 0)
		rt.RLock(&rw, 0)
		rt.RUnlock(&rw, 0)
		rt.RUnlock(&rw, 0)
		return "ok"
	}), "ok")
}

func TestConformanceWaitGroup(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var wg sync.WaitGroup
		var n atomic.Int32
		for i := 0; i < 3; i++ {
			rt.WGGo(&wg, func() { rt.Int32Add(&n, 1, 0) }, 0)
		}
		rt.WGWait(&wg, 0)
		return fmt.Sprint(rt.Int32Load(&n, 0))
	}), "3")
}

func TestConformanceOnce(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var once sync.Once
		var wg sync.WaitGroup
		runs := 0
		for i := 0; i < 2; i++ {
			rt.WGGo(&wg, func() {
				rt.OnceDo(&once, func() { rt.Write(&runs, 0); runs++ }, 0)
				rt.Read(&runs, 0)
				if runs != 1 {
					panic("Do returned before f ran")
				}
			}, 0)
		}
		rt.WGWait(&wg, 0)
		return fmt.Sprint(runs)
	}), "1")
}

func TestConformanceOnceValue(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		calls := 0
		get := rt.OnceValue(func() int { calls++; return 7 }, 0)
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { get() }, 0)
		v := get()
		rt.WGWait(&wg, 0)
		return fmt.Sprint(v, calls)
	}), "7 1")
}

func TestConformanceCondWithPredicate(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := false
		rt.Go(func() {
			rt.Lock(&mu, 0)
			ready = true
			rt.CondBroadcast(c, 0)
			rt.Unlock(&mu, 0)
		}, 0)
		rt.Lock(&mu, 0)
		for !ready {
			rt.CondWait(c, 0)
		}
		rt.Unlock(&mu, 0)
		return fmt.Sprint(ready)
	}), "true")
}

// eager lets a timer fire at any point, as Go does (any runnable goroutine
// may be delayed past any timer): the complete outcome sets. The default
// policy's narrower sets are checked in timers_test.go and stall_test.go.
var eager = rt.Options{Timers: "eager"}

func TestConformanceSleepOrder(t *testing.T) {
	// Only the earliest timer can fire, but a runnable goroutine may be
	// delayed past any timer before it starts sleeping: Go promises
	// nothing about how soon a runnable goroutine runs.
	expect(t, outcomes(t, eager, func() string {
		var mu sync.Mutex
		s := ""
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Sleep(20*time.Millisecond, 0); rt.Lock(&mu, 0); s += "b"; rt.Unlock(&mu, 0) }, 0)
		rt.WGGo(&wg, func() { rt.Sleep(10*time.Millisecond, 0); rt.Lock(&mu, 0); s += "a"; rt.Unlock(&mu, 0) }, 0)
		rt.WGWait(&wg, 0)
		return fmt.Sprint(s, " ", rt.Since(rt.Epoch(), 0).Truncate(time.Millisecond))
	}), "ab 20ms", "ab 30ms", "ba 20ms", "ba 30ms")
}

func TestConformanceTimerStopAndReset(t *testing.T) {
	expect(t, outcomes(t, eager, func() string {
		tm := rt.NewTimer(time.Second, 0)
		stopped := rt.TimerStop(tm, 0)
		rt.TimerReset(tm, 2*time.Second, 0)
		at := rt.Recv(tm.C, 0)
		return fmt.Sprint(stopped, " ", at.Sub(rt.Epoch()).Truncate(time.Millisecond))
	}), "true 2s", "true 3s") // the timer may fire before Stop; Stop then discards the value (Go 1.23)
}

func TestConformanceTicker(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		tk := rt.NewTicker(10*time.Millisecond, 0)
		var at []string
		for i := 0; i < 3; i++ {
			at = append(at, rt.Recv(tk.C, 0).Sub(rt.Epoch()).Truncate(time.Millisecond).String())
		}
		rt.TickerStop(tk, 0)
		return strings.Join(at, ",")
	}), "10ms,20ms,30ms")
}

func TestConformanceTimerRacesChannel(t *testing.T) {
	expect(t, outcomes(t, eager, func() string {
		res := rt.MakeChan[int](1, 0)
		rt.Go(func() { rt.Send(res, 1, 0) }, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, res)
		rt.SelectRecv[time.Time](sel, rt.After(time.Hour, 0))
		if sel.Do(false) == 0 {
			return "result"
		}
		return "timeout"
	}), "result", "timeout")
}

func TestConformanceContext(t *testing.T) {
	expect(t, outcomes(t, eager, func() string {
		parent, cancel := rt.WithCancel(context.Background(), 0)
		child, cancelChild := rt.WithTimeout(parent, time.Hour, 0)
		defer cancelChild()
		rt.Go(cancel, 0)
		rt.Recv(child.Done(), 0)
		return fmt.Sprint(child.Err(), "/", rt.Cause(child, 0))
	}), "context canceled/context canceled", "context deadline exceeded/context deadline exceeded")
	expect(t, outcomes(t, rt.Options{}, func() string {
		ctx, cancel := rt.WithTimeoutCause(context.Background(), 50*time.Millisecond, errors.New("too slow"), 0)
		defer cancel()
		dl, _ := ctx.Deadline()
		rt.Recv(ctx.Done(), 0)
		return fmt.Sprint(ctx.Err(), "/", rt.Cause(ctx, 0), "/", dl.Sub(rt.Epoch()).Truncate(time.Millisecond), "/", rt.Since(rt.Epoch(), 0).Truncate(time.Millisecond))
	}), "context deadline exceeded/too slow/50ms/50ms")
	expect(t, outcomes(t, rt.Options{}, func() string {
		ctx, cancel := rt.WithCancelCause(context.Background(), 0)
		ran := rt.MakeChan[string](1, 0)
		stop := rt.ContextAfterFunc(ctx, func() { rt.Send(ran, "after", 0) }, 0)
		rt.Go(func() { cancel(errors.New("boom")) }, 0)
		s := rt.Recv(ran, 0)
		return fmt.Sprint(s, " ", stop(), " ", rt.Cause(ctx, 0))
	}), "after false boom")
}

func TestConformanceContextSeenByStandardLibrary(t *testing.T) {
	// A context made inside an exploration still works when code the tool
	// does not control waits on it natively.
	expect(t, outcomes(t, rt.Options{}, func() string {
		ctx, cancel := rt.WithCancel(context.Background(), 0)
		cancel()
		<-ctx.Done() // native receive
		return fmt.Sprint(context.Cause(ctx))
	}), "context canceled")
}

func TestConformanceAtomicCAS(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var n int32
		var wg sync.WaitGroup
		inc := func() {
			for {
				v := rt.AtomicLoadInt32(&n, 0)
				if rt.AtomicCompareAndSwapInt32(&n, v, v+1, 0) {
					return
				}
			}
		}
		rt.WGGo(&wg, inc, 0)
		rt.WGGo(&wg, inc, 0)
		rt.WGWait(&wg, 0)
		return fmt.Sprint(n)
	}), "2")
}

func TestConformanceSyncMapLoadOrStore(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var m sync.Map
		var wg sync.WaitGroup
		var a, b any
		rt.WGGo(&wg, func() { a, _ = rt.MapLoadOrStore(&m, "k", "a", 0) }, 0)
		rt.WGGo(&wg, func() { b, _ = rt.MapLoadOrStore(&m, "k", "b", 0) }, 0)
		rt.WGWait(&wg, 0)
		return fmt.Sprint(a, b)
	}), "aa", "bb")
}

func TestConformancePanics(t *testing.T) {
	cases := map[string]func(){
		"close of nil channel":    func() { var c chan int; rt.Close(c, 0) },
		"close of closed channel": func() { c := rt.MakeChan[int](0, 0); rt.Close(c, 0); rt.Close(c, 0) },
		"send on closed channel":  func() { c := rt.MakeChan[int](1, 0); rt.Close(c, 0); rt.Send(c, 1, 0) },
		"sync: negative WaitGroup counter": func() {
			var wg sync.WaitGroup
			rt.WGDone(&wg, 0)
		},
	}
	for want, body := range cases {
		rep, err := rt.Explore(want, rt.Options{Strategy: "dfs", ScheduleDir: "-"}, body)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "panic" || rep.Message != want {
			t.Errorf("%s: got %s %q", want, rep.Kind, rep.Message)
		}
	}
	rep, _ := rt.Explore("unlock", rt.Options{Strategy: "dfs", ScheduleDir: "-"}, func() { var mu sync.Mutex; rt.Unlock(&mu, 0) })
	if rep.Kind != "fatal error" || rep.Message != "sync: unlock of unlocked mutex" {
		t.Errorf("unlock of unlocked mutex: got %s %q", rep.Kind, rep.Message)
	}
	// Receive from a closed channel does not panic; a nil channel blocks.
	rep, _ = rt.Explore("nilrecv", rt.Options{Strategy: "dfs", ScheduleDir: "-"}, func() { var c chan int; rt.Recv(c, 0) })
	if rep.Kind != "deadlock" {
		t.Errorf("receive from nil channel: got %s", rep.Kind)
	}
}

func TestConformanceGoexitAndPanicsInGoroutines(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		done := rt.MakeChan[string](1, 0)
		rt.Go(func() {
			defer func() { rt.Send(done, "deferred ran", 0) }()
			rt.Goexit(0)
		}, 0)
		return rt.Recv(done, 0)
	}), "deferred ran")
	rep, _ := rt.Explore("panic", rt.Options{ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() { panic("boom in goroutine") }, 0)
		rt.Recv(c, 0)
	})
	if rep.Kind != "panic" || rep.Message != "boom in goroutine" || !strings.Contains(rep.Text, "conformance_test.go") {
		t.Errorf("panic in goroutine: got %s %q\n%s", rep.Kind, rep.Message, rep.Text)
	}
}

// A ticker made before the exploration (a package-level time.Tick) ticks
// in virtual time inside it.
var packageTick = rt.Tick(10*time.Millisecond, 0)

func TestConformancePackageLevelTicker(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		a := rt.Recv(packageTick, 0)
		b := rt.Recv(packageTick, 0)
		return fmt.Sprint(a.Sub(rt.Epoch()), " ", b.Sub(rt.Epoch()))
	}), "10ms 20ms")
}

// userLocker is a sync.Locker of the user's own, built on a modeled mutex.
type userLocker struct{ mu sync.Mutex }

func (l *userLocker) Lock()   { rt.Lock(&l.mu, 0) }
func (l *userLocker) Unlock() { rt.Unlock(&l.mu, 0) }

func TestConformanceLockers(t *testing.T) {
	// Calls through sync.Locker reach the model whatever the Locker is: a
	// Mutex, an RWMutex, its RLocker, or a user type.
	for name, mk := range map[string]func() (sync.Locker, func() bool){
		"Mutex": func() (sync.Locker, func() bool) {
			var mu sync.Mutex
			return &mu, func() bool { ok := rt.TryLock(&mu, 0); return !ok }
		},
		"RWMutex": func() (sync.Locker, func() bool) {
			var rw sync.RWMutex
			return &rw, func() bool { ok := rt.TryRLock(&rw, 0); return !ok }
		},
		"RLocker": func() (sync.Locker, func() bool) {
			var rw sync.RWMutex
			return rt.RLocker(&rw), func() bool { ok := rt.RWTryLock(&rw, 0); return !ok }
		},
		"user": func() (sync.Locker, func() bool) {
			l := &userLocker{}
			return l, func() bool { ok := rt.TryLock(&l.mu, 0); return !ok }
		},
	} {
		t.Run(name, func(t *testing.T) {
			expect(t, outcomes(t, rt.Options{}, func() string {
				l, held := mk()
				rt.LockerLock(l, 0)
				h := held()
				rt.LockerUnlock(l, 0)
				return fmt.Sprint(h, " ", held())
			}), "true false")
		})
	}
}

func TestConformanceCondOverRLocker(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var rw sync.RWMutex
		c := sync.NewCond(rt.RLocker(&rw))
		ready := false
		rt.Go(func() {
			rt.RWLock(&rw, 0)
			ready = true
			rt.RWUnlock(&rw, 0)
			rt.CondBroadcast(c, 0)
		}, 0)
		rt.RLock(&rw, 0)
		for !ready {
			rt.CondWait(c, 0)
		}
		rt.RUnlock(&rw, 0)
		return "ok"
	}), "ok")
}
