package mcr

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"interleave.dev/internal/z3"
	"interleave.dev/rt/wire"
)

// encoder holds the formula of one query: an order variable per event and
// R, the target's order, with the base constraints asserted once on one
// solver, and each target checked in its own scope.
type encoder struct {
	order
	s *z3.Solver
	r z3.Int // R
	// overlap memoizes, per location and mask, the writes to the location
	// that touch the mask's bits.
	overlap map[locMask][]write
}

// order is the order variables of a trace's events and the constraints
// over them that MCR and MPC share.
type order struct {
	tr *trace
	c  *z3.Context
	o  []z3.Int // O_e
}

type locMask struct {
	loc  int32
	mask uint64
}

// newEncoder makes the variables of tr in c and asserts its base
// constraints on a new solver.
func newEncoder(c *z3.Context, tr *trace) *encoder {
	x := &encoder{
		order:   order{tr: tr, c: c, o: make([]z3.Int, len(tr.events))},
		s:       c.NewSolver(),
		r:       c.IntVar("r"),
		overlap: make(map[locMask][]write),
	}
	for i := range x.o {
		// Named after the index, so the names repeat across contexts
		// (Z3 never frees a name).
		x.o[i] = c.IntVar("o" + strconv.Itoa(i))
	}
	x.assertOrder()
	x.assertLocks()
	x.assertValidity()
	return x
}

// inPrefix is O_e < R: event e runs before the target.
func (x *encoder) inPrefix(e int32) z3.Bool { return x.c.Lt(x.o[e], x.r) }

// before is O_a < O_b.
func (x *order) before(a, b int32) z3.Bool { return x.c.Lt(x.o[a], x.o[b]) }

// assertOrder asserts program order and the After edges.
func (x *encoder) assertOrder() {
	for i, ev := range x.tr.events {
		e := int32(i)
		if p := x.tr.prev[e]; p >= 0 {
			x.keep(p, e)
		}
		for _, a := range ev.After {
			x.keep(a, e)
		}
	}
}

// keep asserts that event a runs before event b, and that b in the prefix
// puts a in it. The second follows from the first, but stated as a clause
// over the two atoms it lets Z3 propagate the prefix guards of the data
// validity constraints without a step of arithmetic (measured: a quarter
// off each target's check on the synthetic trace of the benchmark).
func (x *encoder) keep(a, b int32) {
	x.s.Assert(x.before(a, b), x.c.Implies(x.inPrefix(b), x.inPrefix(a)))
}

// assertLocks asserts that of two regions of a lock whose acquires are
// both in the prefix, one ends before the other begins.
func (x *encoder) assertLocks() {
	for _, obj := range x.tr.locks {
		rs := x.tr.regions[obj]
		for i := range rs {
			for j := i + 1; j < len(rs); j++ {
				x.exclude(rs[i], rs[j])
			}
		}
	}
}

// exclude asserts the mutual exclusion of regions a and b when both
// acquires are in the prefix.
func (x *encoder) exclude(a, b region) {
	if p, ok := x.mutex(a, b); ok {
		both := x.c.And(x.inPrefix(a.acq), x.inPrefix(b.acq))
		x.s.Assert(x.c.Implies(both, p))
	}
}

// mutex says that regions a and b do not overlap: one ends before the
// other begins. It reports false when there is nothing to say: both are
// shared, or a release precedes the other acquire in program order. A
// region with no release cannot end first (two such regions give false).
func (x *order) mutex(a, b region) (z3.Bool, bool) {
	if a.shared && b.shared {
		return z3.Bool{}, false
	}
	var first []z3.Bool
	for _, p := range [2][2]region{{a, b}, {b, a}} {
		u, next := p[0].rel, p[1].acq
		if u < 0 {
			continue
		}
		if x.tr.po(u, next) {
			return z3.Bool{}, false
		}
		first = append(first, x.before(u, next))
	}
	return x.c.Or(first...), true
}

// assertValidity asserts that every read access of every event in the
// prefix returns its trace value.
func (x *encoder) assertValidity() {
	for i, ev := range x.tr.events {
		e := int32(i)
		var reads []z3.Bool
		for _, a := range ev.Acc {
			if a.Read {
				reads = append(reads, x.valid(e, a, a.RV))
			}
		}
		if len(reads) > 0 {
			x.s.Assert(x.c.Implies(x.inPrefix(e), x.c.And(reads...)))
		}
	}
}

// valid says that access a of event e reads v under its mask: from a write
// that covers the mask with that value, or from the initial value.
func (x *encoder) valid(e int32, a wire.MCRMemAccess, v uint64) z3.Bool {
	ws := x.overlapping(a.Loc, a.Mask)
	var from []z3.Bool
	for _, w := range ws {
		if w.e == e || w.mask&a.Mask != a.Mask || (w.v^v)&a.Mask != 0 || x.tr.po(e, w.e) {
			continue
		}
		if p, ok := x.readsFrom(e, w.e, ws); ok {
			from = append(from, p)
		}
	}
	if init, ok := x.tr.init[a.Loc]; ok && (init^v)&a.Mask == 0 {
		if p, ok := x.readsInit(e, ws); ok {
			from = append(from, p)
		}
	}
	return x.c.Or(from...)
}

// readsFrom says that e reads from write w: w runs before e, and each other
// write of ws runs before w or after e. It reports false when program
// order puts one between them.
func (x *order) readsFrom(e, w int32, ws []write) (z3.Bool, bool) {
	all := []z3.Bool{x.before(w, e)}
	for _, w2 := range ws {
		switch {
		case w2.e == w || w2.e == e || x.tr.po(w2.e, w) || x.tr.po(e, w2.e):
			continue
		case x.tr.po(w, w2.e) && x.tr.po(w2.e, e):
			return z3.Bool{}, false
		}
		all = append(all, x.c.Or(x.before(w2.e, w), x.before(e, w2.e)))
	}
	return x.c.And(all...), true
}

// readsInit says that e reads the initial value: every write of ws other
// than e's own runs after e. It reports false when one must run before.
func (x *order) readsInit(e int32, ws []write) (z3.Bool, bool) {
	var all []z3.Bool
	for _, w2 := range ws {
		switch {
		case w2.e == e || x.tr.po(e, w2.e):
			continue
		case x.tr.po(w2.e, e):
			return z3.Bool{}, false
		}
		all = append(all, x.before(e, w2.e))
	}
	return x.c.And(all...), true
}

// overlapping returns the writes to loc that touch the bits of mask.
func (x *encoder) overlapping(loc int32, mask uint64) []write {
	k := locMask{loc, mask}
	if ws, ok := x.overlap[k]; ok {
		return ws
	}
	var ws []write
	for _, w := range x.tr.writes[loc] {
		if w.mask&mask != 0 {
			ws = append(ws, w)
		}
	}
	x.overlap[k] = ws
	return ws
}

// solve checks target t in its own scope: R is the target's order and its
// access reads t.Value.
func (x *encoder) solve(t wire.MCRTarget) (wire.MCRResult, error) {
	start := time.Now()
	x.s.Push()
	x.s.Assert(x.c.Eq(x.r, x.o[t.Event]))
	if t.Blocked {
		x.s.Assert(x.heldByOther(t.Event))
	} else {
		acc := x.tr.events[t.Event].Acc[t.Acc]
		x.s.Assert(x.valid(t.Event, acc, t.Value))
	}
	res, err := x.check(t.Event)
	x.s.Pop()
	if err == nil {
		err = x.c.Err()
	}
	res.Micros = time.Since(start).Microseconds()
	return res, err
}

// heldByOther is the condition of a blocked target at acquire e: some
// critical section of e's lock in another thread, exclusive if e is
// shared, has its acquire in the prefix and its release (if any) not.
func (x *encoder) heldByOther(e int32) z3.Bool {
	ev := x.tr.events[e]
	var held []z3.Bool
	for _, r := range x.tr.regions[ev.Obj] {
		if x.tr.events[r.acq].T == ev.T || (r.shared && ev.Shared) {
			continue
		}
		open := x.inPrefix(r.acq)
		if r.rel >= 0 {
			open = x.c.And(open, x.c.Not(x.inPrefix(r.rel)))
		}
		held = append(held, open)
	}
	return x.c.Or(held...)
}

// check runs the solver and, when it finds a model, reads the prefix
// ending in event r from it.
func (x *encoder) check(r int32) (wire.MCRResult, error) {
	st, err := x.s.Check()
	if err != nil {
		return wire.MCRResult{}, fmt.Errorf("checking: %w", err)
	}
	switch st {
	case z3.Unsat:
		return wire.MCRResult{Status: wire.MCRUnsat}, nil
	case z3.Unknown:
		reason := x.s.ReasonUnknown()
		if reason == "" {
			reason = "unknown"
		}
		return wire.MCRResult{Status: wire.MCRUnknown, Reason: reason}, nil
	}
	prefix, err := x.prefix(r)
	if err != nil {
		return wire.MCRResult{}, err
	}
	return wire.MCRResult{Status: wire.MCRSat, Prefix: prefix}, nil
}

// prefix reads the model of the last check: the events ordered before r,
// sorted by order and then by trace index, and r.
func (x *encoder) prefix(r int32) ([]int32, error) {
	m, err := x.s.Model()
	if err != nil {
		return nil, fmt.Errorf("reading the model: %w", err)
	}
	defer m.Close()
	or, ok := m.EvalInt(x.o[r])
	if !ok {
		return nil, fmt.Errorf("the model gives no value to o%d", r)
	}
	type ordered struct {
		o int64
		e int32
	}
	var pre []ordered
	for i, o := range x.o {
		v, ok := m.EvalInt(o)
		if !ok {
			return nil, fmt.Errorf("the model gives no value to o%d", i)
		}
		if v < or {
			pre = append(pre, ordered{v, int32(i)})
		}
	}
	slices.SortFunc(pre, func(a, b ordered) int {
		return cmp.Or(cmp.Compare(a.o, b.o), cmp.Compare(a.e, b.e))
	})
	out := make([]int32, 0, len(pre)+1)
	for _, p := range pre {
		out = append(out, p.e)
	}
	return append(out, r), nil
}
