package mcr

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt/wire"
)

// figure1 is the shape of figure 1 of the MPC paper: T0 writes x = i, T1
// writes x = j, T2 reads x and branches on x == 10, false in the trace
// (i = j = 0). The inputs range over [min, max].
func figure1(min, max int64) (b *mpcBuilder, w0, w1, r int32) {
	b = new(mpcBuilder)
	b.init(x, 0)
	i := b.input(min, max, 0)
	j := b.input(min, max, 0)
	w0 = b.symWrite(0, x, 0, i)
	w1 = b.symWrite(1, x, 0, j)
	r = b.read(2, x, 0)
	b.branch(2, r, op("==", rdv(r), cnst(10)), false)
	return b, w0, w1, r
}

// Negating T2's branch needs the write T2 reads from last to have written
// 10: an input of 10 and a schedule that puts that write last before the
// read. With inputs that cannot be 10, the core is T2's path condition.
func TestMPCFigure1(t *testing.T) {
	b, w0, w1, r := figure1(-1000, 1000)
	rs := solveMPCChecked(t, b.query(prefix(cut(2, 1, true)), prefix(), prefix(cut(2, 0, false))))
	wantMPC(t, rs, mpcSat, mpcSat, mpcSat)
	from := -1 // the input of the last write before the read
	for _, e := range rs[0].Prefix {
		switch e {
		case w0:
			from = 0
		case w1:
			from = 1
		}
		if e == r {
			break
		}
	}
	if from < 0 || rs[0].Inputs[from] != 10 {
		t.Errorf("schedule %v, inputs %v: the read does not read an input of 10", rs[0].Prefix, rs[0].Inputs)
	}
	if want := []int64{0, 0}; !slices.Equal(rs[1].Inputs, want) {
		t.Errorf("the trace's own path: inputs %v, want the run's %v", rs[1].Inputs, want)
	}
	if want := []int32{w0, w1}; !slices.Equal(rs[2].Prefix, want) {
		t.Errorf("T2 cut before its branch: schedule %v, want %v", rs[2].Prefix, want)
	}

	// T0 cut before any event (it has no branches): T2 reads T1's j.
	rs = solveMPCChecked(t, b.query(prefix(cut(0, 0, false), cut(2, 1, true))))
	wantMPC(t, rs, mpcSat)
	if p, in := rs[0].Prefix, rs[0].Inputs; slices.Contains(p, w0) || !slices.Equal(in, []int64{0, 10}) {
		t.Errorf("T0 cut: schedule %v inputs %v, want no %d and j = 10 (i as in the run)", p, in, w0)
	}

	b, _, _, _ = figure1(0, 5)
	rs = solveMPCChecked(t, b.query(prefix(cut(2, 1, true)), prefix()))
	wantMPC(t, rs, mpcUnsat(2), mpcSat)
}

// figure6 is the shape of figure 6(a) of the MPC paper (section 4.3.1,
// why strategy S1 is unsound): T0 runs
//
//	if i == 0 { x = 1 } else if j == 5 { x = 2 }
//
// and T1 runs "if x == 2 { error }". With taken false the trace has
// i = 0, j = 0: T0's branch a (i == 0) true and x = 1, then T1 reads 1 and
// its branch c is false. With taken true, i = 1 and j = 5: branch a
// false, branch b (j == 5) true, x = 2, and T1 reads x before the write.
func figure6(firstTaken bool) (b *mpcBuilder, w, r int32) {
	b = new(mpcBuilder)
	b.init(x, 0)
	iv, jv := int64(0), int64(0)
	if !firstTaken {
		iv, jv = 1, 5
	}
	i := b.input(-100, 100, iv)
	j := b.input(-100, 100, jv)
	b.branch(0, -1, op("==", i, cnst(0)), firstTaken)
	if firstTaken {
		w = b.write(0, x, 1)
		r = b.read(1, x, 1)
	} else {
		b.branch(0, -1, op("==", j, cnst(5)), true)
		r = b.read(1, x, 0)
		w = b.write(0, x, 2)
	}
	b.branch(1, r, op("==", rdv(r), cnst(2)), false)
	return b, w, r
}

// The prefix that negates a and c is unsat, and only because of T1's path
// condition: the trace has no write of 2 (T0's pc, i != 0, holds alone),
// so S2 extends T0 (its branch a negated, T1 cut before its branch),
// which is sat. On the trace of that extension, T1's c negated is sat,
// the error path S1 misses.
func TestMPCFigure6(t *testing.T) {
	b, _, _ := figure6(true)
	rs := solveMPCChecked(t, b.query(
		prefix(cut(0, 1, true), cut(1, 1, true)),
		prefix(cut(0, 1, true), cut(1, 0, false)),
		prefix(cut(0, 1, true)), // T1 whole: c false as it went
	))
	wantMPC(t, rs, mpcUnsat(1), mpcSat, mpcSat)
	for _, k := range []int{1, 2} {
		if r := rs[k]; r.Status == sat && r.Inputs[0] == 0 {
			t.Errorf("prefix %d: inputs %v take branch a", k, r.Inputs)
		}
	}

	b, w, r := figure6(false)
	rs = solveMPCChecked(t, b.query(prefix(cut(1, 1, true)), prefix(cut(0, 2, true), cut(1, 1, true))))
	wantMPC(t, rs, mpcSat, mpcUnsat(1)) // T0's i != 0 && j != 5 writes nothing
	if p := rs[0].Prefix; !slices.Equal(p, []int32{w, r}) || rs[0].Inputs[0] == 0 || rs[0].Inputs[1] != 5 {
		t.Errorf("error path: schedule %v inputs %v, want [%d %d] with i != 0, j == 5", p, rs[0].Inputs, w, r)
	}
}

// x = 1 is visible only inside T0's critical section, so T1 reading x in
// its own cannot see it; without the locks it can. A schedule that makes
// T1 read a write of T0 inside the lock runs T0's section first, whole.
func TestMPCLocks(t *testing.T) {
	for _, locked := range []bool{true, false} {
		var b mpcBuilder
		b.init(x, 0)
		if locked {
			b.lock(0, m)
		}
		b.write(0, x, 1)
		b.write(0, x, 0)
		if locked {
			b.unlock(0, m)
			b.lock(1, m)
		}
		r := b.read(1, x, 0)
		b.branch(1, r, op("==", rdv(r), cnst(1)), false)
		if locked {
			b.unlock(1, m)
		}
		rs := solveMPCChecked(t, b.query(prefix(cut(1, 1, true)), prefix()))
		if locked {
			wantMPC(t, rs, mpcUnsat(1), mpcSat)
		} else {
			wantMPC(t, rs, mpcSat, mpcSat)
		}
	}

	var b mpcBuilder
	b.init(x, 0)
	l1 := b.lock(1, m)
	r := b.read(1, x, 0)
	b.branch(1, r, op("==", rdv(r), cnst(1)), false)
	u1 := b.unlock(1, m)
	l0 := b.lock(0, m)
	w := b.write(0, x, 1)
	u0 := b.unlock(0, m)
	rs := solveMPCChecked(t, b.query(prefix(cut(1, 1, true))))
	wantMPC(t, rs, mpcSat)
	// T1's release is cut off: T1 holds m to the end.
	if p := rs[0].Prefix; len(p) != 5 || slices.Contains(p, u1) || index(p, u0) > index(p, l1) || index(p, w) > index(p, r) {
		t.Errorf("schedule %v, want T0's section [%d %d %d] before T1's acquire %d", p, l0, w, u0, l1)
	}
}

// A cut that leaves out a thread's release keeps its lock held to the end:
// the other thread's section must run before the acquire, and cannot when
// it must read what the holder writes after the acquire. Two threads that
// both hold the lock to the end make sync alone unsat: an empty core.
func TestMPCLockHeldByCut(t *testing.T) {
	var b mpcBuilder
	b.init(x, 0)
	b.init(y, 0)
	l0 := b.lock(0, m)
	ry := b.read(0, y, 0)
	b.branch(0, ry, op("==", rdv(ry), cnst(0)), true)
	b.write(0, x, 1)
	b.unlock(0, m)
	l1 := b.lock(1, m)
	rx := b.read(1, x, 1)
	b.unlock(1, m)
	b.branch(1, rx+1, op("==", rdv(rx), cnst(1)), true)
	rs := solveMPCChecked(t, b.query(
		prefix(cut(0, 1, false)),                  // T0 holds m; T1 whole reads x = 1: no write
		prefix(cut(0, 1, false), cut(1, 1, true)), // T1 reads 0, before T0's acquire
	))
	wantMPC(t, rs, mpcUnsat(1), mpcSat)
	if p := rs[1].Prefix; rs[1].Status == sat && index(p, l0) < index(p, l1) {
		t.Errorf("schedule %v: T1's section after T0's held acquire", p)
	}

	b = mpcBuilder{}
	b.init(x, 0)
	for th := range int32(2) {
		b.lock(th, m)
		r := b.read(th, x, 0)
		b.branch(th, r, op("==", rdv(r), cnst(0)), true)
		b.unlock(th, m)
	}
	rs = solveMPCChecked(t, b.query(prefix(cut(0, 1, false), cut(1, 1, false)), prefix(cut(0, 1, false))))
	wantMPC(t, rs, mpcUnsat(), mpcSat)
}

// A subtrace event that must follow an event the prefix leaves out (the go
// statement that started its thread) makes the prefix unsat with the two
// threads as its core.
func TestMPCUnclosedSubtrace(t *testing.T) {
	var b mpcBuilder
	b.init(y, 0)
	ry := b.read(0, y, 0)
	b.branch(0, ry, op("==", rdv(ry), cnst(0)), true)
	g := b.add(wire.MCREvent{T: 0}) // go
	rx := b.add(wire.MCREvent{T: 1, K: wire.MCRAccess, After: []int32{g}, Acc: []wire.MCRMemAccess{rd(y, full, 0)}})
	b.branch(1, rx, op("==", rdv(rx), cnst(0)), true)
	rs := solveMPCChecked(t, b.query(prefix(cut(0, 1, true)), prefix(cut(0, 1, true), cut(1, 0, false)), prefix()))
	wantMPC(t, rs, mpcUnsat(0, 1), mpcUnsat(0), mpcSat)
	if rs[0].Micros > 1000 {
		t.Logf("the unclosed subtrace took %d us", rs[0].Micros)
	}
}

// A condition naming a read its subtrace leaves out is unsat with the
// read's thread as the core.
func TestMPCReadOutsideSubtrace(t *testing.T) {
	var b mpcBuilder
	b.init(x, 0)
	r := b.read(0, x, 0)
	b.branch(0, -1, op("==", rdv(r), cnst(0)), true)
	rs := solveMPCChecked(t, b.query(prefix(cut(0, 1, false)), prefix()))
	wantMPC(t, rs, mpcUnsat(0), mpcSat)
}

// A write's symbolic value makes its readers' values depend on what it
// read: T2 needs x = 5, which T0 writes as y + 1, so T1 must write y = 4
// (input i) before T0 reads y, and T0 write before T2 reads.
func TestMPCTransitiveWrites(t *testing.T) {
	var b mpcBuilder
	b.init(x, 0)
	b.init(y, 0)
	i := b.input(-100, 100, 0)
	ry := b.read(0, y, 0)
	wx := b.symWrite(0, x, 1, op("+", rdv(ry), cnst(1)))
	wy := b.symWrite(1, y, 0, i)
	rx := b.read(2, x, 1)
	b.branch(2, rx, op("==", rdv(rx), cnst(5)), false)
	rs := solveMPCChecked(t, b.query(prefix(cut(2, 1, true))))
	wantMPC(t, rs, mpcSat)
	p := rs[0].Prefix
	if rs[0].Inputs[0] != 4 || index(p, wy) > index(p, ry) || index(p, wx) > index(p, rx) {
		t.Errorf("schedule %v inputs %v, want i = 4, %d before %d, %d before %d", p, rs[0].Inputs, wy, ry, wx, rx)
	}
	// Without the input: T1 writes a concrete 0, so x is 1 at most.
	b.q.Writes = b.q.Writes[:1]
	rs = solveMPCChecked(t, b.query(prefix(cut(2, 1, true))))
	wantMPC(t, rs, mpcUnsat(2))
}

// Reads decode their bytes: signed or not, at an offset, and unsigned
// 64-bit values above the int64 range; each stays in its type's range.
// A write of only some of a read's bytes gives it any value.
func TestMPCReadDecoding(t *testing.T) {
	var b mpcBuilder
	b.init(x, 0x80ff)
	b.init(y, 1<<63)
	r := b.read(0, x, 0x80ff)
	rdx := func(off, size uint8, signed bool) wire.MPCTerm {
		return wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{Event: r, Off: off, Size: size, Signed: signed}}
	}
	b.branch(0, r, op("==", rdx(0, 1, true), cnst(-1)), true)
	b.branch(0, r, op("==", rdx(0, 1, false), cnst(255)), true)
	b.branch(0, r, op("==", rdx(1, 1, true), cnst(-128)), true)
	b.branch(0, r, op("==", rdx(0, 2, false), cnst(0x80ff)), true)
	ry := b.read(0, y, 1<<63)
	big := wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{Event: ry, Size: 8}}
	b.branch(0, ry, op(">", big, cnst(1<<62)), true)
	for k := range 5 { // each of T0's conditions holds only as it went
		rs := solveMPCChecked(t, b.query(prefix(cut(0, int32(k+1), true))))
		wantMPC(t, rs, mpcUnsat(0))
	}
	rs := solveMPCChecked(t, b.query(prefix()))
	wantMPC(t, rs, mpcSat)

	// A 2-byte read of x by T1 (0x80ff in the trace) asked for 0x0307,
	// which T2 writes to its 2 bytes, or to 1 of them, in variants.
	rz := b.read(1, x, 0x80ff)
	z := wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{Event: rz, Size: 2}}
	b.branch(1, rz, op("==", z, cnst(0x0307)), false)
	w := b.access(2, wr(x, 0xffff, 0x0001))
	ask := prefix(cut(0, 0, false), cut(1, 1, true))
	rs = solveMPCChecked(t, b.query(ask))
	wantMPC(t, rs, mpcUnsat(1)) // 0x0001 or the initial 0x80ff
	b.tr.Events[w].Acc[0] = wr(x, 0xffff, 0x0307)
	rs = solveMPCChecked(t, b.query(ask))
	wantMPC(t, rs, mpcSat)
	// Partly: the read gets any value (the replay check would not see
	// 0x0307, so the result is not checked).
	b.tr.Events[w].Acc[0] = wr(x, 0xff, 0x07)
	rs = SolveMPC(b.query(ask)).Results
	wantMPC(t, rs, mpcSat)
	b.tr.Events[w].Acc[0] = wr(x, 0xffff, 0x0001)
	b.q.Writes = []wire.MPCWrite{{Event: w, Size: 1, Value: cnst(7)}}
	rs = SolveMPC(b.query(ask)).Results
	wantMPC(t, rs, mpcSat)
	// Exactly the read's bytes: the symbolic value, 7.
	b.q.Writes = []wire.MPCWrite{{Event: w, Size: 2, Value: cnst(7)}}
	rs = solveMPCChecked(t, b.query(ask))
	wantMPC(t, rs, mpcUnsat(1))
	b.q.Writes = []wire.MPCWrite{{Event: w, Size: 2, Value: cnst(0x0307)}}
	rs = solveMPCChecked(t, b.query(ask))
	wantMPC(t, rs, mpcSat)
	// A value out of the read's range cannot be read.
	b.q.Writes = []wire.MPCWrite{{Event: w, Size: 2, Value: cnst(0x0307 + 1<<16)}}
	b.q.Branches[len(b.q.Branches)-1].Cond = op("==", z, cnst(0x0307+1<<16))
	rs = solveMPCChecked(t, b.query(ask))
	wantMPC(t, rs, mpcUnsat(1))
}

// Arithmetic and the booleans: integers as conditions, conditions as
// integers, several arguments.
func TestMPCTerms(t *testing.T) {
	var b mpcBuilder
	b.add(wire.MCREvent{T: 0})
	i := b.input(-50, 50, 0)
	j := b.input(0, 1, 0) // a bool
	// (i - 3 - 4) * 2 + neg(j) == 5 && (j || false) && !(i == 0)
	cond := op("&&",
		op("==", op("+", op("*", op("-", i, cnst(3), cnst(4)), cnst(2)), op("neg", j)), cnst(5)),
		op("||", j, cnst(0)),
		op("!", op("==", i, cnst(0))),
	)
	b.branch(0, -1, cond, false)
	// the comparisons, as integers: (i < 20) + (i <= 10) + (i > 9) + (i >= 10) + (i != 3) == 5
	sum := op("+", op("<", i, cnst(20)), op("<=", i, cnst(10)), op(">", i, cnst(9)), op(">=", i, cnst(10)), op("!=", i, cnst(3)))
	b.branch(0, -1, op("==", sum, cnst(5)), false)
	rs := solveMPCChecked(t, b.query(prefix(cut(0, 1, true)), prefix(cut(0, 2, true))))
	wantMPC(t, rs, mpcSat, mpcSat)
	if got := rs[0].Inputs; !slices.Equal(got, []int64{10, 1}) {
		t.Errorf("inputs %v, want [10 1]", got)
	}
	if got := rs[1].Inputs; !slices.Equal(got, []int64{10, 0}) {
		t.Errorf("inputs %v, want [10 0] (j as in the run)", got)
	}
}

// Malformed queries get an Error for the whole query.
func TestMPCMalformed(t *testing.T) {
	base := func() *wire.MPCQuery {
		var b mpcBuilder
		b.init(x, 0)
		i := b.input(0, 9, 1)
		r := b.read(0, x, 0)
		b.symWrite(1, x, 0, i)
		b.branch(0, r, op("==", rdv(r), cnst(0)), true)
		return b.query(prefix(cut(0, 1, true)))
	}
	if a := SolveMPC(base()); a.Error != "" {
		t.Fatalf("the base query: %s", a.Error)
	}
	readOf := func(q *wire.MPCQuery) *wire.MPCRead { return q.Branches[0].Cond.Args[0].Read }
	for _, c := range []struct {
		name, want string
		edit       func(q *wire.MPCQuery)
	}{
		{"event thread", "thread 5 out of range", func(q *wire.MPCQuery) { q.Trace.Events[0].T = 5 }},
		{"branch thread", "branch 0: thread 2 out of range", func(q *wire.MPCQuery) { q.Branches[0].T = 2 }},
		{"branch after", "after event 1 of thread 1", func(q *wire.MPCQuery) { q.Branches[0].After = 1 }},
		{"branch after range", "after event 7 out of range", func(q *wire.MPCQuery) { q.Branches[0].After = 7 }},
		{"branch order", "before the event", func(q *wire.MPCQuery) {
			q.Branches = append(q.Branches, q.Branches[0])
			q.Branches[1].After = -1
		}},
		{"cut n", "after branch 2, out of range [0, 1]", func(q *wire.MPCQuery) { q.Prefixes[0].Cuts[0].N = 2 }},
		{"cut negative", "after branch -1", func(q *wire.MPCQuery) { q.Prefixes[0].Cuts[0].N = -1 }},
		{"cut thread", "cut of thread 3, out of range", func(q *wire.MPCQuery) { q.Prefixes[0].Cuts[0].T = 3 }},
		{"cut twice", "two cuts of thread 0", func(q *wire.MPCQuery) {
			q.Prefixes[0].Cuts = append(q.Prefixes[0].Cuts, q.Prefixes[0].Cuts[0])
		}},
		{"negate nothing", "negates one", func(q *wire.MPCQuery) { q.Prefixes[0].Cuts[0].N = 0 }},
		{"read event", "read: event 9 out of range", func(q *wire.MPCQuery) { readOf(q).Event = 9 }},
		{"read access", "read: access 1 of event 0 out of range", func(q *wire.MPCQuery) { readOf(q).Acc = 1 }},
		{"read of a write", "read: access 0 of event 1 does not read", func(q *wire.MPCQuery) { readOf(q).Event = 1 }},
		{"read size 0", "size not in 1..8", func(q *wire.MPCQuery) { readOf(q).Size = 0 }},
		{"read size 9", "size not in 1..8", func(q *wire.MPCQuery) { readOf(q).Size = 9 }},
		{"read past the word", "past the 8th byte", func(q *wire.MPCQuery) { readOf(q).Off, readOf(q).Size = 5, 4 }},
		{"read outside the mask", "outside the access's mask", func(q *wire.MPCQuery) { q.Trace.Events[0].Acc[0].Mask = 0xff }},
		{"no read", "read term with no read", func(q *wire.MPCQuery) { q.Branches[0].Cond.Args[0].Read = nil }},
		{"unknown op", `unknown operation "%"`, func(q *wire.MPCQuery) { q.Branches[0].Cond.Op = "%" }},
		{"arity", `operation "!" with 2 arguments`, func(q *wire.MPCQuery) { q.Branches[0].Cond.Op = "!" }},
		{"leaf args", `operation "c" with 1 arguments`, func(q *wire.MPCQuery) {
			q.Branches[0].Cond.Args[1].Args = []wire.MPCTerm{cnst(1)}
		}},
		{"input", "input 1 out of range", func(q *wire.MPCQuery) { q.Writes[0].Value.V = 1 }},
		{"input range", "input 0: value 1, range [3, 9]", func(q *wire.MPCQuery) { q.Inputs[0].Min = 3 }},
		{"write of a read", "write 0: access 0 of event 0 does not write", func(q *wire.MPCQuery) { q.Writes[0].Event = 0 }},
		{"write size", "write 0: bytes [0, 9)", func(q *wire.MPCQuery) { q.Writes[0].Size = 9 }},
		{"write twice", "a second value for bytes [0, 8)", func(q *wire.MPCQuery) { q.Writes = append(q.Writes, q.Writes[0]) }},
		{"timeout", "timeout_ms -1", func(q *wire.MPCQuery) { q.TimeoutMillis = -1 }},
	} {
		q := base()
		c.edit(q)
		a := SolveMPC(q)
		if a.Results != nil || !strings.Contains(a.Error, c.want) {
			t.Errorf("%s: %+v, want an error containing %q", c.name, a, c.want)
		}
	}
	if a := SolveMPC(nil); a.Error == "" {
		t.Error("no query: no error")
	}
}

// No prefixes, no results; a spent budget answers the prefixes it left
// unknown.
func TestMPCBudget(t *testing.T) {
	b, _, _, _ := figure1(-1000, 1000)
	if a := SolveMPC(b.query()); a.Error != "" || a.Results != nil {
		t.Errorf("no prefixes: %+v", a)
	}
	var ps []wire.MPCPrefix
	for range 200 {
		ps = append(ps, prefix(cut(2, 1, true)))
	}
	q := b.query(ps...)
	q.BudgetMillis = 1
	start := time.Now()
	rs := solveMPCChecked(t, q)
	out := 0
	for _, r := range rs {
		if r.Status == wire.MCRUnknown && r.Reason == wire.MCRBudgetOut {
			out++
		}
	}
	t.Logf("%d of %d prefixes out of budget, in %v", out, len(rs), time.Since(start))
	if out == 0 {
		t.Error("no prefix left out by a budget of 1 ms")
	}
}

// The query survives JSON: the field names of rt/wire carry every part.
func TestMPCJSON(t *testing.T) {
	b, _ := figure6Trace()
	line, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var q wire.MPCQuery
	if err := json.Unmarshal(line, &q); err != nil {
		t.Fatal(err)
	}
	rs := solveMPCChecked(t, &q)
	wantMPC(t, rs, mpcUnsat(1), mpcSat)
}

func figure6Trace() (*wire.MPCQuery, error) {
	b, _, _ := figure6(true)
	return b.query(prefix(cut(0, 1, true), cut(1, 1, true)), prefix(cut(0, 1, true), cut(1, 0, false))), nil
}

// BenchmarkMPC solves the figures' queries: one op is one query (a
// context, and a solver per prefix); us/prefix is the solver's time per
// prefix as MPCResult.Micros reports it.
func BenchmarkMPC(b *testing.B) {
	fig1, _, _, _ := figure1(-1000, 1000)
	fig6, _ := figure6Trace()
	for _, c := range []struct {
		name string
		q    *wire.MPCQuery
	}{
		{"figure1-negated", fig1.query(prefix(cut(2, 1, true)))},
		{"figure1-as-run", fig1.query(prefix())},
		{"figure6", fig6},
	} {
		b.Run(c.name, func(b *testing.B) {
			var micros, n int64
			for b.Loop() {
				a := SolveMPC(c.q)
				if a.Error != "" {
					b.Fatal(a.Error)
				}
				for _, r := range a.Results {
					micros += r.Micros
					n++
				}
			}
			b.ReportMetric(float64(micros)/float64(n), "us/prefix")
		})
	}
}

// A cut with Until keeps a thread's events before that event: thread 0
// reads y, starts thread 1 and then joins it (an event after thread 1's
// read); with thread 1 cut before its read, thread 0 keeps its read and
// its go statement but not the join, and its branch still holds.
func TestMPCCutUntil(t *testing.T) {
	var b mpcBuilder
	b.init(y, 0)
	ry := b.read(0, y, 0)
	b.branch(0, ry, op("==", rdv(ry), cnst(0)), true)
	g := b.add(wire.MCREvent{T: 0}) // go
	rx := b.add(wire.MCREvent{T: 1, K: wire.MCRAccess, After: []int32{g}, Acc: []wire.MCRMemAccess{rd(y, full, 0)}})
	b.branch(1, rx, op("==", rdv(rx), cnst(0)), true)
	join := b.add(wire.MCREvent{T: 0, After: []int32{rx}})
	until := wire.MPCCut{T: 0, N: 1, Until: join}
	rs := solveMPCChecked(t, b.query(prefix(until, cut(1, 0, false)), prefix(wire.MPCCut{T: 0, N: 1, Until: g})))
	wantMPC(t, rs, mpcSat, mpcUnsat(0, 1))
	if len(rs[0].Prefix) != 2 || rs[0].Prefix[0] != ry || rs[0].Prefix[1] != g {
		t.Errorf("prefix %v, want thread 0's read and go statement", rs[0].Prefix)
	}
	if a := SolveMPC(b.query(prefix(wire.MPCCut{T: 0, N: 0, Until: join}))); a.Error == "" {
		t.Errorf("a cut until an event that keeps fewer branches than come before it is not refused")
	}
	if a := SolveMPC(b.query(prefix(wire.MPCCut{T: 0, N: 1, Negate: true, Until: join}))); a.Error == "" {
		t.Errorf("a cut until an event that negates a branch is not refused")
	}
}
