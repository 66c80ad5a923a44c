package rt_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// A select that returned must leave nothing behind in the queues of the
// channels it waited on: a later close of one of them, or the firing of
// its timer, must not wake the goroutine's next select. Each case below
// makes the first select return through its last case, then blocks the
// same goroutine in a second select whose only possible outcome natively
// is its own timeout, while something happens to a channel of the first.

// selectThenWait runs a blocking select of n cases returning through the
// last, then a second select over a fresh channel and a timer of an hour,
// while poke acts on one of the first select's channels. It returns what
// the second select saw.
func selectThenWait(n int, poke func(chans []chan int)) string {
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = rt.MakeChan[int](0, 0)
	}
	rt.Go(func() { rt.Send(chans[n-1], 1, 0) }, 0)
	sel := rt.SelectStart(0)
	for _, c := range chans {
		rt.SelectRecv(sel, c)
	}
	if i := sel.Do(false); i != n-1 {
		return fmt.Sprintf("first select took case %d", i)
	}
	rt.SelectValue[int](sel)
	fresh := rt.MakeChan[int](0, 0)
	rt.Go(func() { poke(chans) }, 0)
	sel = rt.SelectStart(0)
	rt.SelectRecv(sel, fresh)
	rt.SelectRecv(sel, rt.After(time.Hour, 0))
	switch sel.Do(false) {
	case 0:
		v, ok := rt.SelectValue[int](sel)
		return fmt.Sprintf("received %d, %v from a channel nobody sends on", v, ok)
	default:
		return "timeout"
	}
}

func TestSelectRegistrationOutlivedByClose(t *testing.T) {
	for _, n := range []int{2, 3, 5, 9} {
		expect(t, outcomes(t, rt.Options{}, func() string {
			return selectThenWait(n, func(chans []chan int) {
				for _, c := range chans[:n-1] {
					rt.Close(c, 0)
				}
			})
		}), "timeout")
	}
}

func TestSelectRegistrationOutlivedByTimer(t *testing.T) {
	for _, timers := range []string{"stall", "idle"} {
		got := outcomeSet(t, "dfs", rt.Options{Timers: timers}, func() string {
			// The first select's own timer is due long before the second's.
			a, b := rt.MakeChan[int](0, 0), rt.MakeChan[int](0, 0)
			rt.Go(func() { rt.Send(b, 1, 0) }, 0)
			sel := rt.SelectStart(0)
			rt.SelectRecv(sel, a)
			rt.SelectRecv(sel, rt.After(time.Second, 0))
			rt.SelectRecv(sel, a)
			rt.SelectRecv(sel, b)
			if i := sel.Do(false); i != 3 {
				return fmt.Sprintf("first select took case %d", i)
			}
			fresh := rt.MakeChan[int](0, 0)
			start := rt.Now(0)
			sel = rt.SelectStart(0)
			rt.SelectRecv(sel, a)
			rt.SelectRecv(sel, rt.After(time.Hour, 0))
			rt.SelectRecv(sel, fresh)
			i := sel.Do(false)
			if waited := rt.Since(start, 0); i == 1 && waited < time.Hour {
				return fmt.Sprintf("timeout after %v", waited)
			}
			return fmt.Sprint("case ", i)
		})
		expect(t, got, "case 1")
	}
}

func TestSelectRegistrationOutlivedByContextCancel(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		ctx, cancel := rt.WithCancel(context.Background(), 0)
		defer cancel()
		tctx, tcancel := rt.WithTimeout(context.Background(), time.Second, 0)
		defer tcancel()
		got := selectThenWaitOn(func(sel *rt.Select) {
			rt.SelectRecv(sel, ctx.Done())
			rt.SelectRecv(sel, tctx.Done())
		}, cancel)
		return got
	}), "timeout")
}

// selectThenWaitOn is selectThenWait with the first select's other cases
// added by add, and poke run in a goroutine once it returned.
func selectThenWaitOn(add func(*rt.Select), poke func()) string {
	ready := rt.MakeChan[int](0, 0)
	rt.Go(func() { rt.Send(ready, 1, 0) }, 0)
	sel := rt.SelectStart(0)
	add(sel)
	rt.SelectRecv(sel, ready)
	i := sel.Do(false)
	if v, _ := rt.SelectValue[int](sel); v != 1 {
		return fmt.Sprintf("first select took case %d", i)
	}
	fresh := rt.MakeChan[int](0, 0)
	rt.Go(poke, 0)
	sel = rt.SelectStart(0)
	rt.SelectRecv(sel, fresh)
	rt.SelectRecv(sel, fresh)
	rt.SelectRecv(sel, rt.After(time.Hour, 0))
	switch j := sel.Do(false); j {
	case 2:
		return "timeout"
	default:
		v, ok := rt.SelectValue[int](sel)
		return fmt.Sprintf("case %d received %d, %v from a channel nobody sends on", j, v, ok)
	}
}

// ackLocker is a sync.Locker whose Unlock waits for a value from a
// channel: a Cond's waiter is blocked there, between taking its place in
// the wait list and parking, when a Signal comes.
type ackLocker struct {
	ready, ack chan int
	got        int
}

func (l *ackLocker) Lock() {}

func (l *ackLocker) Unlock() {
	rt.Send(l.ready, 1, 0)
	l.got = rt.Recv(l.ack, 0)
}

func TestCondSignalDoesNotWakeOtherWait(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		l := &ackLocker{ready: rt.MakeChan[int](0, 0), ack: rt.MakeChan[int](0, 0)}
		c := sync.NewCond(l)
		rt.Go(func() {
			rt.Recv(l.ready, 0)
			rt.CondSignal(c, 0)
			rt.Send(l.ack, 42, 0)
		}, 0)
		rt.CondWait(c, 0)
		return fmt.Sprint("Unlock received ", l.got)
	}), "Unlock received 42")
}

// A Cond's L that is the standard library's RLocker, not the one the
// instrumenter puts in its place (obtained through an interface, or in
// code it does not rewrite), takes modeled read locks: a writer cannot
// lock meanwhile.
func TestLockerNativeRLocker(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var rw sync.RWMutex
		l := rw.RLocker()
		rt.LockerLock(l, 0)
		locked := rt.RWTryLock(&rw, 0)
		rt.LockerUnlock(l, 0)
		return fmt.Sprint("writer locked under a read lock: ", locked, ", after: ", rt.RWTryLock(&rw, 0))
	}), "writer locked under a read lock: false, after: true")
}
