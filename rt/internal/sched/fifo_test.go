package sched

import (
	"sync"
	"testing"
	"unsafe"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// prefer is a strategy that lets the test goroutine start all the others,
// then always runs the first goroutine of order that has an option
// (falling back to the first option, such as the timer).
type prefer struct{ order []int32 }

func (p *prefer) Name() string         { return "prefer" }
func (p *prefer) Begin() bool          { return true }
func (p *prefer) End(strategy.Outcome) {}
func (p *prefer) Choose(pt *strategy.Point) int {
	for i, o := range pt.Options {
		if o.G == 1 && o.Ev.Op == event.OpSpawn {
			return i
		}
	}
	for _, g := range p.order {
		for i, o := range pt.Options {
			if o.G == g {
				return i
			}
		}
	}
	return 0
}

func runScripted(t *testing.T, order []int32, body func()) *Result {
	t.Helper()
	r := Explore(Config{Strategy: &prefer{order}, Schedules: 1, Leaks: true, MaxSteps: 1000}, body)
	if r.Finding != nil {
		t.Fatalf("unexpected finding %s: %s", r.Finding.Kind, r.Finding.Message)
	}
	return r
}

// Blocked receivers are served in the order they blocked; slots stand for
// the values sent.
func TestFIFOReceivers(t *testing.T) {
	for _, tc := range []struct {
		order []int32
		want  [2]int32 // what goroutines 2 and 3 receive
	}{
		{[]int32{2, 3, 1}, [2]int32{10, 20}},
		{[]int32{3, 2, 1}, [2]int32{20, 10}},
	} {
		var got [2]int32
		var ch int
		runScripted(t, tc.order, func() {
			g := Current()
			o := g.Chan(unsafe.Pointer(&ch), 0)
			var wg int
			g.WGAdd(unsafe.Pointer(&wg), 2, 0)
			for i := range got {
				g.Go(func() {
					me := Current()
					got[i], _ = me.Recv(o, 0)
					me.WGAdd(unsafe.Pointer(&wg), -1, 0)
				}, 0)
			}
			g.Sleep(1, 0) // both receivers block meanwhile
			g.Send(o, 10, 0)
			g.Send(o, 20, 0)
			g.WGWait(unsafe.Pointer(&wg), 0)
		})
		if got != tc.want {
			t.Errorf("order %v: receivers got %v, want %v", tc.order, got, tc.want)
		}
	}
}

// Blocked senders are served in the order they blocked.
func TestFIFOSenders(t *testing.T) {
	var got [2]int32
	var ch int
	runScripted(t, []int32{3, 2, 1}, func() {
		g := Current()
		o := g.Chan(unsafe.Pointer(&ch), 0)
		g.Go(func() { Current().Send(o, 2, 0) }, 0)
		g.Go(func() { Current().Send(o, 3, 0) }, 0)
		g.Sleep(1, 0) // both senders block meanwhile
		got[0], _ = g.Recv(o, 0)
		got[1], _ = g.Recv(o, 0)
	})
	if got != [2]int32{3, 2} {
		t.Errorf("received %v, want the value of goroutine 3 (blocked first) first", got)
	}
}

// Cond.Signal wakes the longest waiter.
func TestCondSignalWakesLongestWaiter(t *testing.T) {
	for _, tc := range []struct {
		order []int32
		first int32
	}{{[]int32{2, 3, 1}, 2}, {[]int32{3, 2, 1}, 3}} {
		var first int32
		var mu sync.Mutex
		var cond int
		runScripted(t, tc.order, func() {
			g := Current()
			c, m := unsafe.Pointer(&cond), unsafe.Pointer(&mu)
			for i := 0; i < 2; i++ {
				g.Go(func() {
					me := Current()
					me.Lock(m, 0)
					me.CondEnqueue(c, 0)
					me.Unlock(m, 0)
					me.CondPark(c, 0)
					me.Lock(m, 0)
					if first == 0 {
						first = me.ID
					}
					me.Unlock(m, 0)
				}, 0)
			}
			g.Sleep(1, 0) // both waiters wait meanwhile
			g.Lock(m, 0)
			g.CondSignal(c, 0)
			g.Unlock(m, 0)
			for first == 0 {
				g.Yield(0)
			}
			g.Lock(m, 0)
			g.CondBroadcast(c, 0)
			g.Unlock(m, 0)
		})
		if first != tc.first {
			t.Errorf("order %v: Signal woke goroutine %d, want %d", tc.order, first, tc.first)
		}
	}
}

// Readers that blocked behind a writer get the lock when it unlocks,
// before a writer that asked later.
func TestRWMutexBlockedReadersBeforeNextWriter(t *testing.T) {
	var rw sync.RWMutex
	var log []int32
	runScripted(t, []int32{2, 3, 1}, func() {
		g := Current()
		p := unsafe.Pointer(&rw)
		g.RWLock(p, 0)
		g.Go(func() { // 2: blocks behind the writer
			me := Current()
			me.RLock(p, 0)
			log = append(log, me.ID)
			me.RUnlock(p, 0)
		}, 0)
		g.Go(func() { // 3: a later writer
			me := Current()
			me.RWLock(p, 0)
			log = append(log, me.ID)
			me.RWUnlock(p, 0)
		}, 0)
		g.Sleep(1, 0) // 2 and 3 block meanwhile
		g.RWUnlock(p, 0)
		for len(log) < 2 {
			g.Yield(0)
		}
	})
	if len(log) != 2 || log[0] != 2 {
		t.Errorf("lock order %v, want the blocked reader 2 first", log)
	}
}
