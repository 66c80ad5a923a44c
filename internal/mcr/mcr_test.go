package mcr

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

const (
	sat   = wire.MCRSat
	unsat = wire.MCRUnsat
	x, y  = int32(0), int32(1) // locations
	m     = int32(0)           // a lock
)

// T0 writes x = 1, T1 reads x (0 in the trace): the read can return 1 by
// running after the write, 0 by running first, and never 5.
func TestReadFromOtherThread(t *testing.T) {
	var b builder
	b.init(x, 0)
	w := b.write(0, x, 1)
	r := b.read(1, x, 0)
	rs := solveChecked(t, b.query(target(r, 1), target(r, 5), target(r, 0)))
	wantStatus(t, rs, sat, unsat, sat)
	if want := []int32{w, r}; !reflect.DeepEqual(rs[0].Prefix, want) {
		t.Errorf("prefix for x = 1: %v, want %v", rs[0].Prefix, want)
	}
	if want := []int32{r}; !reflect.DeepEqual(rs[2].Prefix, want) {
		t.Errorf("prefix for x = 0: %v, want %v", rs[2].Prefix, want)
	}
}

// The shape of the papers' example: a read of x that three writes in three
// threads can supply (1, 9 and 14, after their lines). The reading
// thread's own write comes first, so the initial value is out of reach.
func TestThreeCandidateWrites(t *testing.T) {
	var b builder
	b.init(x, 0)
	w1 := b.write(0, x, 1)
	w9 := b.write(1, x, 9)
	w14 := b.write(2, x, 14)
	r := b.read(1, x, 14)
	rs := solveChecked(t, b.query(target(r, 1), target(r, 9), target(r, 14), target(r, 0)))
	wantStatus(t, rs, sat, sat, sat, unsat)
	// The checker saw each value read; the writes it read from must be in
	// the prefixes.
	for i, w := range []int32{w1, w9, w14} {
		if !slices.Contains(rs[i].Prefix, w) {
			t.Errorf("target %d: prefix %v lacks write %d", i, rs[i].Prefix, w)
		}
	}
}

// x = 1 is visible only inside T0's critical section, so T1 reading x in
// its own critical section cannot see it; without the locks it can.
func TestLockExclusion(t *testing.T) {
	for _, locked := range []bool{true, false} {
		var b builder
		b.init(x, 0)
		if locked {
			b.lock(0, m)
		}
		w1 := b.write(0, x, 1)
		w2 := b.write(0, x, 2)
		if locked {
			b.unlock(0, m)
			b.lock(1, m)
		}
		r := b.read(1, x, 2)
		if locked {
			b.unlock(1, m)
		}
		rs := solveChecked(t, b.query(target(r, 1), target(r, 2), target(r, 0)))
		if locked {
			wantStatus(t, rs, unsat, sat, sat)
			continue
		}
		wantStatus(t, rs, sat, sat, sat)
		if p := rs[0].Prefix; !slices.Contains(p, w1) || slices.Contains(p, w2) {
			t.Errorf("unlocked, x = 1: prefix %v should hold write %d and not %d", p, w1, w2)
		}
	}
}

// T1 reads y (0, which only T2's second write gives) and then x. For x to
// read its initial value, T2's first write (x = 2) would have to come after
// it, hence after the read of y, which would then lose its value: unsat.
// Values that keep the read of y are sat; without that read, so is 0.
func TestEarlierReadsKeepTheirValues(t *testing.T) {
	for _, withY := range []bool{true, false} {
		var b builder
		b.init(x, 0) // y has no initial value
		b.write(2, x, 2)
		b.write(2, y, 0)
		b.write(0, x, 3)
		if withY {
			b.read(1, y, 0)
		}
		rx := b.read(1, x, 2)
		rs := solveChecked(t, b.query(target(rx, 0), target(rx, 2), target(rx, 3)))
		if withY {
			wantStatus(t, rs, unsat, sat, sat)
		} else {
			wantStatus(t, rs, sat, sat, sat)
		}
	}
}

// An event that reads and writes a location reads first: it cannot read
// its own write.
func TestUpdateDoesNotReadItself(t *testing.T) {
	var b builder
	b.init(x, 0)
	u := b.access(0, wire.MCRMemAccess{Loc: x, Mask: full, Read: true, RV: 0, Write: true, WV: 1})
	rs := solveChecked(t, b.query(target(u, 1), target(u, 0)))
	wantStatus(t, rs, unsat, sat)
	w := b.write(1, x, 1)
	rs = solveChecked(t, b.query(target(u, 1)))
	wantStatus(t, rs, sat)
	if want := []int32{w, u}; !reflect.DeepEqual(rs[0].Prefix, want) {
		t.Errorf("prefix %v, want %v", rs[0].Prefix, want)
	}
}

// T0 writes x = 1 and then starts T1 (a go statement), whose read of x
// lists the go statement in After: it cannot read the initial 0. Without
// the edge it can.
func TestAfterEdges(t *testing.T) {
	for _, edge := range []bool{true, false} {
		var b builder
		b.init(x, 0)
		w := b.write(0, x, 1)
		spawn := b.add(wire.MCREvent{T: 0})
		ev := wire.MCREvent{T: 1, K: wire.MCRAccess, Acc: []wire.MCRMemAccess{rd(x, full, 1)}}
		if edge {
			ev.After = []int32{spawn}
		}
		r := b.add(ev)
		rs := solveChecked(t, b.query(target(r, 0), target(r, 1)))
		if !edge {
			wantStatus(t, rs, sat, sat)
			continue
		}
		wantStatus(t, rs, unsat, sat)
		if want := []int32{w, spawn, r}; !reflect.DeepEqual(rs[1].Prefix, want) {
			t.Errorf("prefix %v, want %v", rs[1].Prefix, want)
		}
	}
}

const (
	low  = uint64(0x0000_0000_ffff_ffff)
	high = ^low
)

// A write to the low half of x does not supply a read of the high half or
// of the whole word, even when the value it reports for the whole word has
// the asked bits; a full-word write does.
func TestMasksCover(t *testing.T) {
	var b builder
	b.init(x, 0)
	b.access(0, wr(x, low, 0x2222_2222_1111_1111))
	r := b.access(1, rd(x, high, 0))
	rFull := b.read(1, x, 0)
	want := uint64(0x2222_2222_0000_0000)
	rs := solveChecked(t, b.query(target(r, want), target(r, 0), target(rFull, 0x2222_2222_1111_1111)))
	wantStatus(t, rs, unsat, sat, unsat)

	w := b.write(2, x, 0x2222_2222_0000_0000)
	rs = solveChecked(t, b.query(target(r, want)))
	wantStatus(t, rs, sat)
	if !slices.Contains(rs[0].Prefix, w) {
		t.Errorf("prefix %v lacks the full-word write %d", rs[0].Prefix, w)
	}
}

// A write to the low half does not come between a read of the high half
// and the write it reads from, and values compare under the read's mask.
func TestMasksOverlap(t *testing.T) {
	var b builder
	b.init(x, 0)
	wFull := b.write(0, x, 0xaaaa_aaaa_bbbb_bbbb)
	wLow := b.access(1, wr(x, low, 0xcccc_cccc))
	rHigh := b.access(2, rd(x, high, 0xaaaa_aaaa_0000_0000))
	rLow := b.access(2, rd(x, low, 0xcccc_cccc))
	rs := solveChecked(t, b.query(
		// high bits from wFull whether or not wLow ran since
		target(rHigh, 0xaaaa_aaaa_0000_0000),
		// the low bits compare under the mask; the high ones are ignored
		target(rLow, 0x1234_5678_bbbb_bbbb),
		target(rLow, 0xcccc_cccc),
		target(rLow, 0xaaaa_aaaa),
		// the initial value: T2's read of the high half, before, needs
		// wFull, which wrote the low half too
		target(rLow, 0),
		target(rHigh, 0),
	))
	wantStatus(t, rs, sat, sat, sat, unsat, unsat, sat)
	if p := rs[1].Prefix; !slices.Contains(p, wFull) || slices.Contains(p, wLow) && index(p, wLow) > index(p, wFull) {
		t.Errorf("low half 0xbbbbbbbb: prefix %v should run %d after any %d", p, wFull, wLow)
	}
}

func index(s []int32, e int32) int {
	for i, v := range s {
		if v == e {
			return i
		}
	}
	return -1
}

// An acquire with no release holds the lock to the end of the trace: T1's
// critical section cannot follow T0's acquire in a prefix, so its read
// cannot see the write T0 makes holding the lock. A thread that takes no
// lock can.
func TestOpenLockRegion(t *testing.T) {
	var b builder
	b.init(x, 0)
	b.lock(1, m)
	r1 := b.read(1, x, 0)
	b.unlock(1, m)
	l0 := b.lock(0, m)
	w := b.write(0, x, 1) // T0 never unlocks
	r2 := b.read(2, x, 1)
	rs := solveChecked(t, b.query(target(r1, 1), target(r1, 0), target(r2, 1), target(r2, 0)))
	wantStatus(t, rs, unsat, sat, sat, sat)
	if p := rs[2].Prefix; !slices.Contains(p, l0) || !slices.Contains(p, w) {
		t.Errorf("prefix %v lacks T0's acquire %d and write %d", p, l0, w)
	}
	// The same trace without T0's acquire lets T1 read 1.
	b.tr.Events[l0] = wire.MCREvent{T: 0}
	rs = solveChecked(t, b.query(target(r1, 1)))
	wantStatus(t, rs, sat)
}

// A release with no open acquire is ignored; regions of one thread in
// sequence exclude each other through program order alone.
func TestLockRegionsInSequence(t *testing.T) {
	var b builder
	b.init(x, 0)
	b.unlock(0, m) // ignored
	b.lock(0, m)
	b.write(0, x, 1)
	b.unlock(0, m)
	b.lock(0, m)
	b.write(0, x, 2)
	b.unlock(0, m)
	b.lock(1, m)
	r := b.read(1, x, 2)
	b.unlock(1, m)
	rs := solveChecked(t, b.query(target(r, 1), target(r, 2), target(r, 0)))
	wantStatus(t, rs, sat, sat, sat)
}

func TestNoTargets(t *testing.T) {
	var b builder
	b.write(0, x, 1)
	a := Solve(b.query())
	if a.Error != "" || a.Results != nil {
		t.Fatalf("got %+v, want an empty answer", a)
	}
}

func TestMalformed(t *testing.T) {
	ev := func(tid int32, k wire.MCRKind, acc ...wire.MCRMemAccess) wire.MCREvent {
		return wire.MCREvent{T: tid, K: k, Acc: acc}
	}
	read := ev(0, wire.MCRAccess, rd(x, full, 0))
	q := func(threads int, evs []wire.MCREvent, tg ...wire.MCRTarget) *wire.MCRQuery {
		return &wire.MCRQuery{Trace: wire.MCRTrace{Threads: threads, Events: evs}, Targets: tg}
	}
	after := func(e wire.MCREvent, a ...int32) wire.MCREvent { e.After = a; return e }
	lock := wire.MCREvent{K: wire.MCRAcquire}
	for _, c := range []struct {
		name string
		q    *wire.MCRQuery
		want string
	}{
		{"nil", nil, "no query"},
		{"after forward", q(1, []wire.MCREvent{after(read, 1), read}, target(0, 1)), "event 0: after event 1, which is not an earlier event"},
		{"after itself", q(1, []wire.MCREvent{read, after(read, 1)}), "event 1: after event 1"},
		{"after negative", q(1, []wire.MCREvent{read, after(read, -1)}), "event 1: after event -1"},
		{"thread out of range", q(1, []wire.MCREvent{read, ev(1, wire.MCROther)}), "event 1: thread 1 out of range [0, 1)"},
		{"negative thread", q(1, []wire.MCREvent{ev(-1, wire.MCROther)}), "event 0: thread -1 out of range"},
		{"no threads", q(0, []wire.MCREvent{read}), "thread 0 out of range [0, 0)"},
		{"negative threads", q(-1, nil), "negative thread count"},
		{"target not a read", q(1, []wire.MCREvent{ev(0, wire.MCRAccess, wr(x, full, 1))}, target(0, 1)), "target 0: access 0 of event 0 does not read"},
		{"target event out of range", q(1, []wire.MCREvent{read}, target(0, 1), target(1, 1)), "target 1: event 1 out of range"},
		{"target access out of range", q(1, []wire.MCREvent{read}, wire.MCRTarget{Event: 0, Acc: 1}), "target 0: access 1 of event 0 out of range"},
		{"target of an event without accesses", q(1, []wire.MCREvent{ev(0, wire.MCROther)}, target(0, 1)), "access 0 of event 0 out of range [0, 0)"},
		{"unknown kind", q(1, []wire.MCREvent{ev(0, 9)}), "event 0: unknown kind 9"},
		{"accesses on a lock event", q(1, []wire.MCREvent{ev(0, wire.MCRAcquire, rd(x, full, 0))}), "memory accesses on an event of kind 2"},
		{"zero mask", q(1, []wire.MCREvent{ev(0, wire.MCRAccess, rd(x, 0, 0))}), "access 0: zero mask"},
		{"neither read nor write", q(1, []wire.MCREvent{ev(0, wire.MCRAccess, wire.MCRMemAccess{Loc: x, Mask: full})}), "neither reads nor writes"},
		{"two writes", q(1, []wire.MCREvent{ev(0, wire.MCRAccess, wr(x, low, 0), wr(x, high, 0))}), "access 1: a second write to location 0"},
		{"acquire while held", q(2, []wire.MCREvent{lock, {T: 1, K: wire.MCRAcquire}}), "event 1: acquire of lock 0, held since event 0"},
		{"two initial values", &wire.MCRQuery{Trace: wire.MCRTrace{Init: []wire.MCRInit{{Loc: 3}, {Loc: 3, V: 1}}}}, "two initial values for location 3"},
		{"negative timeout", &wire.MCRQuery{TimeoutMillis: -1}, "timeout_ms -1 out of range"},
		{"huge timeout", &wire.MCRQuery{TimeoutMillis: 1 << 40}, "out of range"},
	} {
		a := Solve(c.q)
		if a.Results != nil || !strings.Contains(a.Error, c.want) {
			t.Errorf("%s: got %+v, want an error containing %q", c.name, a, c.want)
		}
	}
}

// Lock-order inversion: T0 takes m then n, T1 takes n then m, T0 first in
// the trace. T1's acquire of m can be reached while T0 holds m (T0 took m,
// T1 took n: the deadlock's state); T0's first acquire never blocks on
// anything, and an acquire cannot block on its own thread's section.
func TestBlockedAcquire(t *testing.T) {
	const n = int32(1)
	var b builder
	a0m := b.lock(0, m)
	a0n := b.lock(0, n)
	b.unlock(0, n)
	b.unlock(0, m)
	a1n := b.lock(1, n)
	a1m := b.lock(1, m)
	b.unlock(1, m)
	b.unlock(1, n)
	rs := solveChecked(t, b.query(blocked(a1m), blocked(a0n), blocked(a1n), blocked(a0m)))
	wantStatus(t, rs, sat, sat, sat, sat)
	if p := rs[0].Prefix; !slices.Contains(p, a0m) || !slices.Contains(p, a1n) || slices.Contains(p, a0n) {
		t.Errorf("T1 blocked on m: prefix %v should hold T0's lock of m and T1's lock of n, not T0's lock of n", p)
	}

	// One thread alone never blocks on its own lock.
	var c builder
	l1 := c.lock(0, m)
	c.unlock(0, m)
	l2 := c.lock(0, m)
	c.unlock(0, m)
	wantStatus(t, solveChecked(t, c.query(blocked(l2), blocked(l1))), unsat, unsat)
}

// Readers' critical sections overlap, a writer's excludes them: T0 writes
// x = 1 then x = 2 under the read lock (a misuse the model allows, to
// make the overlap visible), and T1 reads x under the read lock: it can
// see 1, between T0's writes. Under the write lock it cannot, nor can a
// writer T1 inside T0's read section.
func TestSharedRegions(t *testing.T) {
	for _, tc := range []struct {
		name             string
		shared0, shared1 bool
		see1             string
	}{
		{"reader and reader", true, true, sat},
		{"reader and writer", true, false, unsat},
		{"writer and reader", false, true, unsat},
		{"writer and writer", false, false, unsat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b builder
			b.init(x, 0)
			lock := func(th int32, shared bool) {
				if shared {
					b.rlock(th, m)
				} else {
					b.lock(th, m)
				}
			}
			unlock := func(th int32, shared bool) {
				if shared {
					b.runlock(th, m)
				} else {
					b.unlock(th, m)
				}
			}
			lock(0, tc.shared0)
			b.write(0, x, 1)
			b.write(0, x, 2)
			unlock(0, tc.shared0)
			lock(1, tc.shared1)
			r := b.read(1, x, 2)
			unlock(1, tc.shared1)
			rs := solveChecked(t, b.query(target(r, 1), target(r, 2), target(r, 0)))
			wantStatus(t, rs, tc.see1, sat, sat)
		})
	}
}

// A reader waits for a writer, not for another reader; a writer waits for
// either.
func TestBlockedSharedAcquire(t *testing.T) {
	var b builder
	b.rlock(0, m)
	b.runlock(0, m)
	r1 := b.rlock(1, m)
	b.runlock(1, m)
	rs := solveChecked(t, b.query(blocked(r1)))
	wantStatus(t, rs, unsat)

	var c builder
	c.rlock(0, m)
	c.runlock(0, m)
	w1 := c.lock(1, m)
	c.unlock(1, m)
	rs = solveChecked(t, c.query(blocked(w1)))
	wantStatus(t, rs, sat)
}
