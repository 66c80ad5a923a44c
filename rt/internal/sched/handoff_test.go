package sched

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"interleave.dev/rt/internal/strategy"
)

// withChannels runs f with every controlled goroutine spawned as a
// native goroutine parked on its channel, as INTERLEAVE_HANDOFF=channel
// does.
func withChannels(t *testing.T, f func()) {
	t.Helper()
	if coroutinesOff.Load() {
		t.Skip("coroutines are off in this process (INTERLEAVE_HANDOFF=channel)")
	}
	coroutinesOff.Store(true)
	defer coroutinesOff.Store(false)
	f()
}

// schedulesOf explores body with dfs to the end of its space (or a
// finding) and returns, per schedule, its choices and event hash.
func schedulesOf(t *testing.T, body func()) (runs []string, r *Result) {
	t.Helper()
	s := &recording{DFS: strategy.NewDFS(0)}
	var its []*Iteration
	r = Explore(Config{Strategy: s, Schedules: 100000, Leaks: true, Race: true, MaxSteps: 10000}, func() {
		its = append(its, Current().it)
		body()
	})
	if len(its) != len(s.choices) {
		t.Fatalf("%d schedules began, %d ended", len(its), len(s.choices))
	}
	for i, c := range s.choices {
		runs = append(runs, fmt.Sprintf("%v %x", c, its[i].hash))
	}
	return runs, r
}

// recording is dfs that keeps the choices of every schedule.
type recording struct {
	*strategy.DFS
	cur     []int
	choices [][]int
}

func (s *recording) Choose(p *strategy.Point) int {
	i := s.DFS.Choose(p)
	s.cur = append(s.cur, p.Encode(i))
	return i
}

func (s *recording) End(o strategy.Outcome) {
	s.choices = append(s.choices, s.cur)
	s.cur = nil
	s.DFS.End(o)
}

// handoffProgram has three goroutines that lock a mutex, send on a
// buffered channel and join on a WaitGroup; goroutine 3 ends through
// runtime.Goexit while holding the schedule (its coroutine hands the
// Goexit on to its hub, which must be replaced) and, with deadlock set,
// goroutine 2 then waits forever on a channel nobody sends on, so that
// parked coroutines are unwound.
func handoffProgram(deadlock bool) func() {
	return func() {
		g := Current()
		var mu, wg, ch, never, n int
		c := g.Chan(unsafe.Pointer(&ch), 2)
		g.MakeChan(c, 0)
		nc := g.Chan(unsafe.Pointer(&never), 0)
		g.MakeChan(nc, 0)
		g.WGAdd(unsafe.Pointer(&wg), 2, 0)
		g.Go(func() {
			me := Current()
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
			me.Send(c, 0, 0)
			me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			if deadlock {
				me.Recv(nc, 0)
			}
		}, 0)
		g.Go(func() {
			me := Current()
			defer me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
			me.Send(c, 0, 0)
			runtime.Goexit()
		}, 0)
		g.WGWait(unsafe.Pointer(&wg), 0)
		g.Recv(c, 0)
		g.Recv(c, 0)
	}
}

// The coroutine handoff explores exactly the schedules the channel
// handoff does, event for event, to the end of the space or to the same
// finding, and leaves no goroutine behind.
func TestHandoffsAgree(t *testing.T) {
	for _, deadlock := range []bool{false, true} {
		t.Run(fmt.Sprintf("deadlock=%v", deadlock), func(t *testing.T) {
			before := runtime.NumGoroutine()
			coro, rc := schedulesOf(t, handoffProgram(deadlock))
			var ch []string
			var rch *Result
			withChannels(t, func() { ch, rch = schedulesOf(t, handoffProgram(deadlock)) })
			if len(coro) == 0 || len(coro) != len(ch) || !deadlock && len(coro) < 100 {
				t.Fatalf("%d schedules with coroutines, %d with channels", len(coro), len(ch))
			}
			for i := range coro {
				if coro[i] != ch[i] {
					t.Fatalf("schedule %d: %s with coroutines, %s with channels", i+1, coro[i], ch[i])
				}
			}
			kind := func(r *Result) string {
				if r.Finding == nil {
					return ""
				}
				return r.Finding.Kind
			}
			if kind(rc) != kind(rch) || deadlock != (rc.Finding != nil) {
				t.Errorf("finding %q with coroutines, %q with channels", kind(rc), kind(rch))
			}
			if !deadlock && !rc.Exhausted {
				t.Errorf("the space was not covered in %d schedules", rc.Iterations)
			}
			waitGoroutines(t, before)
		})
	}
}

// waitGoroutines fails the test if the process does not come back to n
// goroutines: an exploration leaves no hub, worker or controlled
// goroutine behind.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < 100 && runtime.NumGoroutine() > n; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if m := runtime.NumGoroutine(); m > n {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines after the exploration, %d before:\n%s", m, n, buf[:runtime.Stack(buf, true)])
	}
}

// A goroutine whose thread is locked parks on its channel instead of
// yielding (the runtime would throw), and one it spawns meanwhile is not
// a coroutine; the schedules explored are those of the channel handoff.
func TestLockedThreadParksOnChannel(t *testing.T) {
	if coroutinesOff.Load() {
		t.Skip("coroutines are off in this process (INTERLEAVE_HANDOFF=channel)")
	}
	var childCo, lockerCo []bool
	body := func() {
		g := Current()
		var mu, wg, n, m int
		g.WGAdd(unsafe.Pointer(&wg), 2, 0)
		g.Go(func() {
			me := Current()
			lockerCo = append(lockerCo, me.co != nil)
			runtime.LockOSThread()
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
			me.Go(func() {
				child := Current()
				childCo = append(childCo, child.co != nil)
				child.Access(unsafe.Pointer(&m), unsafe.Sizeof(m), false, 0)
				child.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
			runtime.UnlockOSThread()
			me.Access(unsafe.Pointer(&m), unsafe.Sizeof(m), false, 0)
			me.WGAdd(unsafe.Pointer(&wg), -1, 0)
		}, 0)
		g.Lock(unsafe.Pointer(&mu), 0)
		g.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
		g.Unlock(unsafe.Pointer(&mu), 0)
		g.WGWait(unsafe.Pointer(&wg), 0)
	}
	before := runtime.NumGoroutine()
	coro, r := schedulesOf(t, body)
	if r.Finding != nil {
		t.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	for _, c := range childCo {
		if c {
			t.Fatal("a goroutine spawned on a locked thread runs on a coroutine")
		}
	}
	if len(lockerCo) == 0 || !lockerCo[0] {
		t.Fatal("the goroutine that locks its thread did not start as a coroutine: the test does not test the fallback")
	}
	var ch []string
	withChannels(t, func() { ch, _ = schedulesOf(t, body) })
	if fmt.Sprint(coro) != fmt.Sprint(ch) {
		t.Errorf("%d schedules with coroutines, %d with channels:\n%v\n%v", len(coro), len(ch), coro, ch)
	}
	waitGoroutines(t, before)
}

// Workers are reused: an exploration of many schedules of many
// goroutines makes about as many coroutines as one schedule has
// goroutines, not one per goroutine per schedule.
func TestWorkersReused(t *testing.T) {
	if coroutinesOff.Load() {
		t.Skip("coroutines are off in this process (INTERLEAVE_HANDOFF=channel)")
	}
	var made int
	old := newCoroutineHook
	newCoroutineHook = func() { made++ }
	defer func() { newCoroutineHook = old }()
	const goroutines, schedules = 8, 200
	r := Explore(Config{Strategy: strategy.NewRandom(1), Schedules: schedules, Leaks: true, MaxSteps: 10000}, func() {
		g := Current()
		var mu, wg int
		g.WGAdd(unsafe.Pointer(&wg), goroutines, 0)
		for k := 0; k < goroutines; k++ {
			g.Go(func() {
				me := Current()
				me.Lock(unsafe.Pointer(&mu), 0)
				me.Unlock(unsafe.Pointer(&mu), 0)
				me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
	})
	if r.Finding != nil || r.Iterations != schedules {
		t.Fatalf("%d schedules, finding %v", r.Iterations, r.Finding)
	}
	if made < goroutines || made > 4*(goroutines+1) {
		t.Errorf("%d coroutines made for %d schedules of %d goroutines", made, schedules, goroutines+1)
	}
}
