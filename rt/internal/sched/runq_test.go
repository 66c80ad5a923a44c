package sched

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"interleave.dev/rt/internal/strategy"
)

// The tests of this package check the incremental enabled set against a
// scan of every goroutine at every thread choice point (the benchmarks
// turn the check off).
func init() { verifyRunq = true }

// A program that exercises every way a goroutine enters and leaves the
// enabled set: contended mutexes (small and large groups of waiters,
// arrivals while the mutex is open), an RWMutex, a Once, channels,
// yields and exits. Under every strategy the check at each point must
// hold, and DFS must find the same number of leaves with the set as with
// the list.
func runqProgram(goroutines, rounds int) func() {
	return func() {
		g := Current()
		var mu, mu2, rw, wg, n, n2 int
		var once sync.Once
		g.WGAdd(unsafe.Pointer(&wg), goroutines, 0)
		for k := 0; k < goroutines; k++ {
			k := k
			g.Go(func() {
				me := Current()
				for i := 0; i < rounds; i++ {
					m, v := unsafe.Pointer(&mu), unsafe.Pointer(&n)
					if (k+i)%3 == 0 {
						m, v = unsafe.Pointer(&mu2), unsafe.Pointer(&n2)
					}
					me.Lock(m, 0)
					me.Access(v, unsafe.Sizeof(n), true, 0)
					me.Unlock(m, 0)
					if me.TryLock(unsafe.Pointer(&mu2), 0) {
						me.Unlock(unsafe.Pointer(&mu2), 0)
					}
					if k%2 == 0 {
						me.RWLock(unsafe.Pointer(&rw), 0)
						me.RWUnlock(unsafe.Pointer(&rw), 0)
					} else {
						me.RLock(unsafe.Pointer(&rw), 0)
						me.RUnlock(unsafe.Pointer(&rw), 0)
					}
					if me.OnceBegin(&once, 0) {
						me.Yield(0)
						me.OnceEnd(&once)
					}
					me.Yield(0)
				}
				me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
	}
}

func TestRunqMatchesScan(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 20} {
		for _, strat := range []strategy.Strategy{strategy.NewRandom(int64(n)), strategy.NewPCT(int64(n), 3), other{}, &stay{}} {
			t.Run(fmt.Sprintf("%s/%d", strat.Name(), n), func(t *testing.T) {
				r := Explore(Config{Strategy: strat, Schedules: 30, Race: true, Leaks: true}, runqProgram(n, 4))
				if r.Finding != nil {
					t.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
				}
			})
		}
	}
}

// Schedules long enough for the fairness rule to force goroutines that
// were passed over for fairBound points: the longest passed over, read
// from the sets' heaps, is the one the scan finds.
func TestRunqFairnessMatchesScan(t *testing.T) {
	for _, strat := range []strategy.Strategy{&stay{}, strategy.NewRandom(5), strategy.NewPCT(5, 3)} {
		t.Run(strat.Name(), func(t *testing.T) {
			r := Explore(Config{Strategy: strat, Schedules: 3, Race: true, Leaks: true}, runqProgram(12, 150))
			if r.Finding != nil {
				t.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
			}
			if r.Steps < 10*fairBound {
				t.Fatalf("%d steps: too few for the fairness rule to act", r.Steps)
			}
		})
	}
}

// A set's heap gives the member that ran least recently (the lowest id
// among equals) whatever the order in which goroutines join the set,
// leave it, rejoin it and run, with stale entries and rebuilds on the way.
func TestGsetTop(t *testing.T) {
	it := &Iteration{}
	s, other := gset{it: it}, gset{it: it}
	gs := make([]*G, 200)
	for i := range gs {
		gs[i] = &G{ID: int32(i + 1)}
	}
	it.gs = gs
	rng, peak := uint64(1), 0
	rand := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for step := 0; step < 200000; step++ {
		it.steps = step
		g := gs[rand(len(gs))]
		switch r := rand(10); {
		case g.set == nil && r < 6:
			s.add(g)
		case g.set == nil:
			other.add(g)
		case r < 2:
			g.set.remove(g)
		default:
			it.ran(g)
		}
		var want *G
		for _, m := range s.items {
			if want == nil || m.lastRun < want.lastRun || m.lastRun == want.lastRun && m.ID < want.ID {
				want = m
			}
		}
		if got := s.top(); got != want {
			t.Fatalf("step %d: top %v, want %v", step, got, want)
		}
		peak = max(peak, len(s.items))
		if n := s.qn + len(s.heap); n > 2*peak+9 {
			t.Fatalf("step %d: %d entries for at most %d members", step, n, peak)
		}
	}
}

// listed is DFS as a strategy that is not indexed: the scheduler lists
// its options.
type listed struct{ d *strategy.DFS }

func (l listed) Name() string                 { return "listed" }
func (l listed) Begin() bool                  { return l.d.Begin() }
func (l listed) Choose(p *strategy.Point) int { return l.d.Choose(p) }
func (l listed) End(o strategy.Outcome)       { l.d.End(o) }
func (l listed) Complete() bool               { return l.d.Complete() }

func TestRunqDFSSameSpace(t *testing.T) {
	body := func() {
		g := Current()
		var mu, wg, n int
		g.WGAdd(unsafe.Pointer(&wg), 2, 0)
		for k := 0; k < 2; k++ {
			g.Go(func() {
				me := Current()
				me.Lock(unsafe.Pointer(&mu), 0)
				me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
				me.Unlock(unsafe.Pointer(&mu), 0)
				me.Yield(0)
				me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
	}
	a := Explore(Config{Strategy: strategy.NewDFS(0), Schedules: 1 << 20, Race: true, Leaks: true}, body)
	b := Explore(Config{Strategy: listed{strategy.NewDFS(0)}, Schedules: 1 << 20, Race: true, Leaks: true}, body)
	if !a.Exhausted || !b.Exhausted || a.Iterations != b.Iterations {
		t.Fatalf("dfs over the set: %d schedules (exhausted %v); over the list: %d (exhausted %v)", a.Iterations, a.Exhausted, b.Iterations, b.Exhausted)
	}
}

// Timers fire in order of their time however they were reset, with
// sleeps, AfterFunc-like callbacks and channel timers in the two heaps
// (the check against a scan runs at every point too).
func TestTimerHeapsOrder(t *testing.T) {
	var fired []int
	body := func() {
		g := Current()
		var keys [6]int
		ts := make([]*Timer, len(keys))
		for i := range keys {
			i := i
			ts[i] = g.NewTimer(unsafe.Pointer(&keys[i]), int64(10+i)*1e9, 0, nil, func(*Iteration, int64) { fired = append(fired, i) }, 0)
		}
		// Reverse the order by resets: timer i now fires at 100-i seconds.
		for i := range ts {
			g.ResetTimer(ts[i], int64(100-i)*1e9, false, 0)
		}
		g.StopTimer(ts[2], 0)
		g.Sleep(1000e9, 0)
	}
	r := Explore(Config{Strategy: &stay{}, Schedules: 1, Timers: TimersIdle}, body)
	if r.Finding != nil {
		t.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	if fmt.Sprint(fired) != "[5 4 3 1 0]" {
		t.Errorf("fired %v, want [5 4 3 1 0]", fired)
	}
}
