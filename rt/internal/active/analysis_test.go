package active

import (
	"testing"

	"interleave.dev/rt/internal/event"
)

// ev builds an event: goroutine, op, object, site.
func ev(g int32, op event.Op, obj int32, site uint32) event.Event {
	return event.Event{G: g, Op: op, Obj: obj, Site: site}
}

// analyse runs phase 1 over one observed run.
func analyse(run ...event.Event) []*Prediction {
	var s set
	a := newAnalysis(&s)
	for _, e := range run {
		a.event(e)
	}
	a.finish()
	return s.sorted()
}

// spawn2 is the start of every run below: the test goroutine starts
// goroutines 2 and 3.
var spawn2 = []event.Event{
	ev(1, event.OpStart, 0, 0),
	ev(1, event.OpSpawn, 0, 1),
	ev(1, event.OpSpawn, 0, 2),
}

func run(parts ...[]event.Event) []event.Event {
	var out []event.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

const mu, muB, x, ch = 5, 6, 10, 20

// TestRaceHiddenByLockOrder: goroutine 2 writes x before its critical
// section, goroutine 3 after its own; on the observed run 2's section
// came first, so happens-before through the mutex orders the writes and
// a happens-before detector is silent. The lockset part sees that no lock
// protects x.
func TestRaceHiddenByLockOrder(t *testing.T) {
	buggy := run(spawn2,
		[]event.Event{
			ev(2, event.OpStart, 0, 0), ev(2, event.OpWrite, x, 100), ev(2, event.OpLock, mu, 101), ev(2, event.OpUnlock, mu, 102), ev(2, event.OpExit, 0, 0),
			ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 103), ev(3, event.OpUnlock, mu, 104), ev(3, event.OpWrite, x, 105), ev(3, event.OpExit, 0, 0),
		})
	ps := analyse(buggy...)
	if len(ps) != 1 || ps[0].Kind != Race || ps[0].A != 100 || ps[0].B != 105 || !ps[0].WriteA || !ps[0].WriteB {
		t.Fatalf("predictions: %+v, want one race between sites 100 and 105", ps)
	}
	// Fixed: both writes inside the critical sections.
	fixed := run(spawn2,
		[]event.Event{
			ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 101), ev(2, event.OpWrite, x, 100), ev(2, event.OpUnlock, mu, 102), ev(2, event.OpExit, 0, 0),
			ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 103), ev(3, event.OpWrite, x, 105), ev(3, event.OpUnlock, mu, 104), ev(3, event.OpExit, 0, 0),
		})
	if ps := analyse(fixed...); len(ps) != 0 {
		t.Fatalf("fixed twin: predictions %+v, want none", ps)
	}
}

// TestRaceOrderedByChannel: a write before a send and one after the
// matching receive are ordered on every schedule: no prediction. The
// same without the channel is one.
func TestRaceOrderedByChannel(t *testing.T) {
	ordered := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpWrite, x, 100), ev(2, event.OpSend, ch, 101), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpRecv, ch, 102), ev(3, event.OpWrite, x, 103), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(ordered...); len(ps) != 0 {
		t.Fatalf("predictions %+v, want none", ps)
	}
	// The receive blocked before the send: the order comes at its resume.
	blocked := run(spawn2, []event.Event{
		ev(3, event.OpStart, 0, 0), ev(3, event.OpRecv, ch, 102),
		ev(2, event.OpStart, 0, 0), ev(2, event.OpWrite, x, 100), ev(2, event.OpSend, ch, 101), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpResume, 0, 0), ev(3, event.OpWrite, x, 103), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(blocked...); len(ps) != 0 {
		t.Fatalf("blocked receive: predictions %+v, want none", ps)
	}
	// Atomics order too: a store and a later load of the same word.
	atomics := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpWrite, x, 100), ev(2, event.OpAtomicStore, 11, 101), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpAtomicLoad, 11, 102), ev(3, event.OpRead, x, 103), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(atomics...); len(ps) != 0 {
		t.Fatalf("atomics: predictions %+v, want none", ps)
	}
	unordered := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpWrite, x, 100), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpRead, x, 103), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(unordered...); len(ps) != 1 || ps[0].A != 100 || ps[0].B != 103 || ps[0].WriteB {
		t.Fatalf("unordered: predictions %+v, want a write at 100 racing a read at 103", ps)
	}
}

// TestABBANotHit: on the observed run goroutine 2 takes and releases both
// locks before goroutine 3 starts, so nothing deadlocks; the lock-order
// graph has the cycle.
func TestABBANotHit(t *testing.T) {
	buggy := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 200), ev(2, event.OpLock, muB, 201), ev(2, event.OpUnlock, muB, 0), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, muB, 202), ev(3, event.OpLock, mu, 203), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpUnlock, muB, 0), ev(3, event.OpExit, 0, 0),
	})
	ps := analyse(buggy...)
	if len(ps) != 1 || ps[0].Kind != Deadlock {
		t.Fatalf("predictions %+v, want one deadlock", ps)
	}
	want := []Component{{Held: 200, Op: event.OpLock, At: 201}, {Held: 202, Op: event.OpLock, At: 203}}
	if got := ps[0].Cycle; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("cycle %+v, want %+v", got, want)
	}
	// Fixed: the same order in both.
	fixed := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 200), ev(2, event.OpLock, muB, 201), ev(2, event.OpUnlock, muB, 0), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 202), ev(3, event.OpLock, muB, 203), ev(3, event.OpUnlock, muB, 0), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(fixed...); len(ps) != 0 {
		t.Fatalf("fixed twin: predictions %+v, want none", ps)
	}
	// A gate lock taken first by both protects the inversion: the held
	// sets are not disjoint (iGoodlock's condition).
	const gate = 7
	gated := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, gate, 210), ev(2, event.OpLock, mu, 200), ev(2, event.OpLock, muB, 201), ev(2, event.OpUnlock, muB, 0), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpUnlock, gate, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, gate, 211), ev(3, event.OpLock, muB, 202), ev(3, event.OpLock, mu, 203), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpUnlock, muB, 0), ev(3, event.OpUnlock, gate, 0),
	})
	if ps := analyse(gated...); len(ps) != 0 {
		t.Fatalf("gated: predictions %+v, want none", ps)
	}
}

// TestLockAndChannel: goroutine 2 holds mu while it receives; goroutine 3
// takes mu before it sends. Observed with 3 first, nothing blocks.
func TestLockAndChannel(t *testing.T) {
	buggy := run(spawn2, []event.Event{
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 402), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpSend, ch, 403),
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 400), ev(2, event.OpRecv, ch, 401), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpResume, 0, 0), ev(3, event.OpExit, 0, 0),
	})
	ps := analyse(buggy...)
	if len(ps) != 1 || ps[0].Kind != Deadlock || ps[0].What != "lock and channel" {
		t.Fatalf("predictions %+v, want one lock-and-channel deadlock", ps)
	}
	want := []Component{{Held: 400, Op: event.OpRecv, At: 401}, {Op: event.OpLock, At: 402}}
	got := canonical(want)
	if c := ps[0].Cycle; len(c) != 2 || c[0] != got[0] || c[1] != got[1] {
		t.Fatalf("cycle %+v, want %+v", c, got)
	}
	// A Cond.Wait under its own lock is no such wait: Wait unlocks it.
	const cond = 30
	condRun := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 500), ev(2, event.OpCondWait, cond, 501), ev(2, event.OpUnlock, mu, 501),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 502), ev(3, event.OpCondSignal, cond, 503), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpExit, 0, 0),
		ev(2, event.OpResume, 0, 0), ev(2, event.OpLock, mu, 501), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
	})
	if ps := analyse(condRun...); len(ps) != 0 {
		t.Fatalf("cond: predictions %+v, want none", ps)
	}
}

// TestCheckThenAct: goroutine 2 reads x in one critical section and
// writes it in the next; goroutine 3 writes x in between on some other
// schedule.
func TestCheckThenAct(t *testing.T) {
	buggy := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 300), ev(2, event.OpRead, x, 301), ev(2, event.OpUnlock, mu, 0),
		ev(2, event.OpLock, mu, 302), ev(2, event.OpWrite, x, 303), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 304), ev(3, event.OpWrite, x, 305), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpExit, 0, 0),
	})
	ps := analyse(buggy...)
	// The conflicts: 3's write, and the act itself (3 touched x: it may
	// run the same block).
	if len(ps) != 1 || ps[0].Kind != Atomicity || ps[0].First != 301 || ps[0].Second != 302 || len(ps[0].Conflicts) != 2 || ps[0].Conflicts[0] != 305 || ps[0].Conflicts[1] != 303 {
		t.Fatalf("predictions %+v, want check-then-act 301..302 against 305 and 303", ps)
	}
	// Fixed: the read and the write in one critical section.
	fixed := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpLock, mu, 300), ev(2, event.OpRead, x, 301), ev(2, event.OpWrite, x, 303), ev(2, event.OpUnlock, mu, 0), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpLock, mu, 304), ev(3, event.OpWrite, x, 305), ev(3, event.OpUnlock, mu, 0), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(fixed...); len(ps) != 0 {
		t.Fatalf("fixed twin: predictions %+v, want none", ps)
	}
	// sync/atomic: a load then a store of the same word, with another
	// goroutine's store; a CompareAndSwap (an update) is the fix.
	loadStore := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpAtomicLoad, 11, 600), ev(2, event.OpAtomicStore, 11, 601), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpAtomicLoad, 11, 600), ev(3, event.OpAtomicStore, 11, 601), ev(3, event.OpExit, 0, 0),
	})
	ps = analyse(loadStore...)
	if len(ps) != 1 || ps[0].What != "atomic load-then-store" || ps[0].First != 600 || ps[0].Second != 601 {
		t.Fatalf("load-then-store: predictions %+v", ps)
	}
	cas := run(spawn2, []event.Event{
		ev(2, event.OpStart, 0, 0), ev(2, event.OpAtomicLoad, 11, 600), ev(2, event.OpAtomicRMW, 11, 601), ev(2, event.OpExit, 0, 0),
		ev(3, event.OpStart, 0, 0), ev(3, event.OpAtomicLoad, 11, 600), ev(3, event.OpAtomicRMW, 11, 601), ev(3, event.OpExit, 0, 0),
	})
	if ps := analyse(cas...); len(ps) != 0 {
		t.Fatalf("compare-and-swap: predictions %+v, want none", ps)
	}
}

// TestPhilosophers: five goroutines, each taking fork i then fork i+1,
// one after the other on the observed run: a cycle of five.
func TestPhilosophers(t *testing.T) {
	run := []event.Event{ev(1, event.OpStart, 0, 0)}
	for i := 0; i < 5; i++ {
		run = append(run, ev(1, event.OpSpawn, 0, 1))
	}
	for i := int32(0); i < 5; i++ {
		g, left, right := i+2, 40+i, 40+(i+1)%5
		run = append(run, ev(g, event.OpStart, 0, 0), ev(g, event.OpLock, left, 700), ev(g, event.OpLock, right, 701),
			ev(g, event.OpUnlock, right, 0), ev(g, event.OpUnlock, left, 0), ev(g, event.OpExit, 0, 0))
	}
	ps := analyse(run...)
	if len(ps) != 1 || ps[0].Kind != Deadlock || len(ps[0].Cycle) != 5 {
		t.Fatalf("predictions %+v, want one cycle of five", ps)
	}
	// The last philosopher takes the forks the other way round: no cycle.
	for i := range run {
		if run[i].G == 6 && run[i].Op == event.OpLock {
			if run[i].Site == 700 {
				run[i].Obj = 40
			} else {
				run[i].Obj = 44
			}
		}
		if run[i].G == 6 && run[i].Op == event.OpUnlock {
			run[i].Obj = 84 - run[i].Obj
		}
	}
	if ps := analyse(run...); len(ps) != 0 {
		t.Fatalf("ordered forks: predictions %+v, want none", ps)
	}
}
