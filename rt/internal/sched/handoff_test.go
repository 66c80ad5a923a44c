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
// finding), goroutines left blocked being a leak, and returns, per
// schedule, its choices and event hash.
func schedulesOf(t *testing.T, body func()) (runs []string, r *Result) {
	return schedulesLeaks(t, body, true)
}

// schedulesLeaks is schedulesOf, where goroutines left blocked when the
// test returns are a leak or, without leaks, unwound.
func schedulesLeaks(t *testing.T, body func(), leaks bool) (runs []string, r *Result) {
	t.Helper()
	s := &recording{DFS: strategy.NewDFS(0)}
	began := 0
	r = Explore(Config{Strategy: s, Schedules: 100000, Leaks: leaks, Race: true, MaxSteps: 10000}, func() {
		began++
		s.it = Current().it
		body()
	})
	if began != len(s.choices) {
		t.Fatalf("%d schedules began, %d ended", began, len(s.choices))
	}
	for i, c := range s.choices {
		runs = append(runs, fmt.Sprintf("%v %x", c, s.hashes[i]))
	}
	return runs, r
}

// recording is dfs that keeps the choices and the event hash of every
// schedule.
type recording struct {
	*strategy.DFS
	it      *Iteration // the schedule running
	cur     []int
	choices [][]int
	hashes  []uint64
}

func (s *recording) Choose(p *strategy.Point) int {
	i := s.DFS.Choose(p)
	s.cur = append(s.cur, p.Encode(i))
	return i
}

func (s *recording) End(o strategy.Outcome) {
	s.choices = append(s.choices, s.cur)
	s.hashes = append(s.hashes, s.it.eventHash())
	s.cur = nil
	s.DFS.End(o)
}

// handoffProgram has three goroutines that lock a mutex, send on a
// buffered channel and join on a WaitGroup; goroutine 3 ends through
// runtime.Goexit while holding the schedule (its worker ends once a
// stand-in is in its home) and, with deadlock set,
// goroutine 2 then waits forever on a channel nobody sends on, so that
// parked coroutines are unwound.
func handoffProgram(deadlock bool) func() {
	return func() {
		g := Current()
		var mu, wg, n int
		c, nc := testChans(g, 2)
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

// testChans makes the channels of the test programs: c, buffered to
// size, and nc, which nobody sends on.
func testChans(g *G, size int) (c, nc *ChanObj) {
	c, nc = g.Chan(unsafe.Pointer(new(int)), size), g.Chan(unsafe.Pointer(new(int)), 0)
	g.MakeChan(c, 0)
	g.MakeChan(nc, 0)
	return c, nc
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
	newCoroutineHook = func(*worker) { made++ }
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

// slotsChecker records every worker an exploration makes and checks, at
// the end of every schedule, who is parked where: each slot holds the
// runner that believes it is parked there, and when no goroutine is away
// in uncontrolled code, no hub is left parked (the hubs that enter slots
// for goroutines outside them come out again) and every worker that is
// alive is parked.
type slotsChecker struct {
	t       *testing.T
	workers []*worker
	checked int
}

func newSlotsChecker(t *testing.T) *slotsChecker {
	c := &slotsChecker{t: t}
	old := newCoroutineHook
	newCoroutineHook = func(w *worker) { c.workers = append(c.workers, w) }
	t.Cleanup(func() { newCoroutineHook = old })
	return c
}

// check checks the slots of the workers of x, between two schedules.
func (c *slotsChecker) check(x *Explorer) {
	c.t.Helper()
	c.checked++
	for i, w := range c.workers {
		select {
		case <-w.stood:
			continue // ended, or ending with its stand-in in place
		default:
		}
		if w.at == nil {
			c.t.Fatalf("schedule %d: worker %d is alive and not parked", c.checked, i)
		}
		if w.at.in != &w.runner {
			c.t.Fatalf("schedule %d: worker %d believes it is parked in a slot that holds another", c.checked, i)
		}
		if in := w.home.in; in == nil || in.at != w.home {
			c.t.Fatalf("schedule %d: the home of worker %d holds a runner that believes it is elsewhere", c.checked, i)
		}
	}
	if n := len(x.hubs.parked); n != 0 {
		c.t.Fatalf("schedule %d: %d hubs parked in slots between schedules", c.checked, n)
	}
}

// checking wraps a strategy so that c checks the slots after every
// schedule (End comes after the schedule's goroutines were unwound).
type checking struct {
	strategy.Strategy
	c *slotsChecker
	x *Explorer
}

func (s *checking) End(o strategy.Outcome) {
	s.c.check(s.x)
	s.Strategy.End(o)
}

// exitsProgram: goroutines that hand a mutex and a channel to one another
// many times, then end each a different way, so that at every end the
// slots have rotated: one returns, one calls runtime.Goexit from a nested
// call, one returns and calls runtime.Goexit in its deferred function,
// one blocks on a channel forever, once it has started, and is unwound
// when the test returns (Leaks off). Each counts its deferred call; the
// main goroutine checks the counts of the three that end before it
// returns.
func exitsProgram(t *testing.T, deferred *[4]int) func() {
	return func() {
		g := Current()
		var mu, wg, n int
		c, nc := testChans(g, 4)
		before := *deferred
		work := func(me *G, k int) {
			for i := 0; i < k; i++ {
				me.Lock(unsafe.Pointer(&mu), 0)
				me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
				me.Unlock(unsafe.Pointer(&mu), 0)
			}
		}
		g.WGAdd(unsafe.Pointer(&wg), 4, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[0]++; Current().WGAdd(unsafe.Pointer(&wg), -1, 0) }()
			work(me, 3)
			me.Send(c, 0, 0)
		}, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[1]++; Current().WGAdd(unsafe.Pointer(&wg), -1, 0) }()
			work(me, 3)
			func() {
				defer func() { Current().Access(unsafe.Pointer(&n), unsafe.Sizeof(n), false, 0) }()
				runtime.Goexit()
			}()
			t.Error("runtime.Goexit returned")
		}, 0)
		g.Go(func() {
			me := Current()
			defer func() {
				defer func() { deferred[2]++; Current().WGAdd(unsafe.Pointer(&wg), -1, 0) }()
				runtime.Goexit()
			}()
			work(me, 2)
			me.Send(c, 0, 0)
		}, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[3]++ }()
			work(me, 2)
			me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			me.Recv(nc, 0)
			t.Error("a receive from a channel nobody sends on returned")
		}, 0)
		work(g, 2)
		g.WGWait(unsafe.Pointer(&wg), 0)
		g.Recv(c, 0)
		g.Recv(c, 0)
		for k := 0; k < 3; k++ {
			if deferred[k] != before[k]+1 {
				t.Errorf("goroutine %d ran its deferred call %d times", k+2, deferred[k]-before[k])
			}
		}
	}
}

// Coroutines hand the schedule to one another directly, however each
// goroutine ends: by returning, through runtime.Goexit from a nested call
// or from a deferred call, unwound at the end of the schedule. Every
// deferred call runs once, the slots stay consistent from schedule to
// schedule, workers are reused, and nothing is left behind.
func TestDirectSwitchAcrossExits(t *testing.T) {
	if coroutinesOff.Load() {
		t.Skip("coroutines are off in this process (INTERLEAVE_HANDOFF=channel)")
	}
	before := runtime.NumGoroutine()
	c := newSlotsChecker(t)
	const schedules = 300
	var deferred [4]int
	s := &checking{Strategy: strategy.NewRandom(7), c: c}
	body := exitsProgram(t, &deferred)
	r := Explore(Config{Strategy: s, Schedules: schedules, MaxSteps: 10000}, func() {
		s.x = Current().it.x
		body()
	})
	if r.Finding != nil {
		t.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	if r.Iterations != schedules || c.checked != schedules {
		t.Fatalf("%d schedules run, %d checked", r.Iterations, c.checked)
	}
	if deferred != [4]int{schedules, schedules, schedules, schedules} {
		t.Errorf("deferred calls run %v times in %d schedules", deferred, schedules)
	}
	// Two of five goroutines end through runtime.Goexit and one is
	// unwound in every schedule: those workers end; the others are reused.
	if len(c.workers) > 4*schedules {
		t.Errorf("%d workers made for %d schedules", len(c.workers), schedules)
	}
	waitGoroutines(t, before)
}

// The same program explores the same schedules, event for event, with
// either handoff.
func TestDirectSwitchAgreesWithChannels(t *testing.T) {
	var deferred [4]int
	coro, rc := schedulesLeaks(t, exitsProgramSmall(t, &deferred), false)
	var ch []string
	withChannels(t, func() { ch, _ = schedulesLeaks(t, exitsProgramSmall(t, &deferred), false) })
	if rc.Finding != nil {
		t.Fatalf("%s: %s", rc.Finding.Kind, rc.Finding.Message)
	}
	if len(coro) < 50 || fmt.Sprint(coro) != fmt.Sprint(ch) {
		t.Fatalf("%d schedules with coroutines, %d with channels", len(coro), len(ch))
	}
}

// exitsProgramSmall is exitsProgram's ends with fewer steps, for dfs to
// cover: one goroutine returns, one calls runtime.Goexit, one blocks
// forever and is unwound when the test returns.
func exitsProgramSmall(t *testing.T, deferred *[4]int) func() {
	return func() {
		g := Current()
		var mu, n, never int
		nc := g.Chan(unsafe.Pointer(&never), 0)
		g.MakeChan(nc, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[0]++ }()
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
		}, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[1]++; Current().Access(unsafe.Pointer(&n), unsafe.Sizeof(n), false, 0) }()
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
			runtime.Goexit()
		}, 0)
		g.Go(func() {
			me := Current()
			defer func() { deferred[2]++ }()
			me.Lock(unsafe.Pointer(&mu), 0)
			me.Unlock(unsafe.Pointer(&mu), 0)
			me.Recv(nc, 0)
		}, 0)
		g.Lock(unsafe.Pointer(&mu), 0)
		g.Unlock(unsafe.Pointer(&mu), 0)
	}
}

// A goroutine that fails the test and stops (t.FailNow: runtime.Goexit
// after marking the failure), or panics, after the slots have rotated,
// ends the schedule with its finding; the goroutines parked meanwhile are
// unwound, their deferred calls run, and nothing is left behind.
func TestDirectSwitchFailNowAndPanic(t *testing.T) {
	if coroutinesOff.Load() {
		t.Skip("coroutines are off in this process (INTERLEAVE_HANDOFF=channel)")
	}
	for _, how := range []string{"FailNow", "panic", "FailNow in the test"} {
		t.Run(how, func(t *testing.T) {
			before := runtime.NumGoroutine()
			c := newSlotsChecker(t)
			started, unwound := 0, 0
			s := &checking{Strategy: strategy.NewRandom(3), c: c}
			r := Explore(Config{Strategy: s, Schedules: 50, MaxSteps: 10000}, func() {
				g := Current()
				s.x = g.it.x
				var mu, n, never, wg int
				nc := g.Chan(unsafe.Pointer(&never), 0)
				g.MakeChan(nc, 0)
				for k := 0; k < 3; k++ {
					g.Go(func() {
						me := Current()
						started++
						defer func() { unwound++ }()
						for i := 0; i < 3; i++ {
							me.Lock(unsafe.Pointer(&mu), 0)
							me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
							me.Unlock(unsafe.Pointer(&mu), 0)
						}
						me.Recv(nc, 0)
					}, 0)
				}
				if how == "FailNow in the test" {
					for i := 0; i < 3; i++ {
						g.Lock(unsafe.Pointer(&mu), 0)
						g.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
						g.Unlock(unsafe.Pointer(&mu), 0)
					}
					g.FailNow("failed")
				}
				g.WGAdd(unsafe.Pointer(&wg), 1, 0)
				g.Go(func() {
					me := Current()
					defer func() { Current().WGAdd(unsafe.Pointer(&wg), -1, 0) }()
					for i := 0; i < 3; i++ {
						me.Lock(unsafe.Pointer(&mu), 0)
						me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
						me.Unlock(unsafe.Pointer(&mu), 0)
					}
					if how == "panic" {
						panic("boom")
					}
					me.FailNow("failed")
				}, 0)
				g.WGWait(unsafe.Pointer(&wg), 0)
			})
			want := KindTestFailure
			if how == "panic" {
				want = KindPanic
			}
			if r.Finding == nil || r.Finding.Kind != want {
				t.Fatalf("finding %v, want %s", r.Finding, want)
			}
			if r.Iterations != 1 || c.checked != 1 || unwound != started {
				t.Errorf("%d schedules, %d checked, %d goroutines unwound of %d started", r.Iterations, c.checked, unwound, started)
			}
			waitGoroutines(t, before)
		})
	}
}
