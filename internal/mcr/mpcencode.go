package mcr

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"interleave.dev/internal/z3"
	"interleave.dev/rt/wire"
)

// prefixEncoder holds the formula MPC(p) = sync AND pc AND dc of one path
// prefix p (section 4.2 of Yi and Huang, FSE 2018) on a solver of its own:
// order variables for the events of p's subtrace only, a value variable
// per read that a condition uses, and an assumption literal per thread
// guarding that thread's path condition, so that an unsat core names
// threads (section 4.3.2, strategy S2).
type prefixEncoder struct {
	order
	x *mpcTrace
	s *z3.Solver
	// in marks the events of the subtrace.
	in []bool
	// inputs are the variables of the inputs the formula uses (zero for
	// the others).
	inputs []z3.Int
	// reads are the value variables of the reads the formula uses, and
	// pending those whose data constraint is still to be asserted.
	reads   map[wire.MPCRead]z3.Int
	pending []wire.MPCRead
	// outside is the thread of a read the formula uses whose event is not
	// in the subtrace, or -1.
	outside int32
}

// cutAt is how a prefix keeps a thread: its first n branches (all of them
// when whole), the n-th negated when neg.
type cutAt struct {
	n     int
	neg   bool
	whole bool
	until int32 // > 0: the events before it are kept, not those up to the n-th branch
}

// solvePrefix answers prefix p on a new solver of c.
func (x *mpcTrace) solvePrefix(c *z3.Context, p wire.MPCPrefix) (wire.MPCResult, error) {
	cuts := make(map[int32]cutAt)
	for _, ct := range p.Cuts {
		cuts[ct.T] = cutAt{n: int(ct.N), neg: ct.Negate, until: ct.Until}
	}
	keep := func(t int32) cutAt {
		if ct, ok := cuts[t]; ok {
			return ct
		}
		return cutAt{n: len(x.branches[t]), whole: true}
	}
	in := x.subtrace(cuts)
	if a, b, ok := x.unclosed(in); !ok {
		return wire.MPCResult{Status: wire.MCRUnsat, Core: threads(x.events[a].T, x.events[b].T)}, nil
	}
	e := &prefixEncoder{
		order:   order{tr: x.trace, c: c, o: make([]z3.Int, len(x.events))},
		x:       x,
		s:       c.NewSolver(),
		in:      in,
		inputs:  make([]z3.Int, len(x.q.Inputs)),
		reads:   make(map[wire.MPCRead]z3.Int),
		outside: -1,
	}
	defer e.s.Close()
	for i, ok := range in {
		if ok {
			e.o[i] = c.IntVar("o" + strconv.Itoa(i))
		}
	}
	ts, lits := e.assertPathConditions(keep)
	e.assertData()
	if e.outside >= 0 {
		return wire.MPCResult{Status: wire.MCRUnsat, Core: []int32{e.outside}}, nil
	}
	e.assertOrder()
	e.assertLocks()
	if err := c.Err(); err != nil {
		return wire.MPCResult{}, fmt.Errorf("encoding: %w", err)
	}
	return e.check(ts, lits)
}

// subtrace marks the events of the subtrace of a prefix of cuts: a cut
// thread's events up to the After event of its n-th branch (none when n
// is 0), or before its until event, the other threads' all.
func (x *mpcTrace) subtrace(cuts map[int32]cutAt) []bool {
	last := make(map[int32]int32) // cut thread -> its last event kept
	for t, ct := range cuts {
		last[t] = -1
		switch {
		case ct.until > 0:
			last[t] = ct.until - 1
		case ct.n > 0:
			last[t] = x.branches[t][ct.n-1].After
		}
	}
	in := make([]bool, len(x.events))
	for i, ev := range x.events {
		l, cut := last[ev.T]
		in[i] = !cut || int32(i) <= l
	}
	return in
}

// unclosed finds an event b of the subtrace that must follow an event a
// outside it (an After edge; program order keeps a thread's events up to
// a point). It reports false with the two when there is one.
func (x *mpcTrace) unclosed(in []bool) (a, b int32, ok bool) {
	for i, ev := range x.events {
		if !in[i] {
			continue
		}
		for _, p := range ev.After {
			if !in[p] {
				return p, int32(i), false
			}
		}
	}
	return 0, 0, true
}

// threads returns ts sorted, without repeats.
func threads(ts ...int32) []int32 {
	slices.Sort(ts)
	return slices.Compact(ts)
}

// assertPathConditions asserts each thread's path condition over its
// branches the prefix keeps, guarded by a literal of the thread: the
// branches as they went, the last of a cut thread negated when it says
// so. It returns the threads and their literals, in thread order.
func (e *prefixEncoder) assertPathConditions(keep func(int32) cutAt) ([]int32, []z3.Bool) {
	ts := make([]int32, 0, len(e.x.branches))
	for t := range e.x.branches {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	var used []int32
	var lits []z3.Bool
	for _, t := range ts {
		ct := keep(t)
		if ct.n == 0 {
			continue
		}
		conds := make([]z3.Bool, ct.n)
		for i, b := range e.x.branches[t][:ct.n] {
			holds := b.Taken
			if ct.neg && i == ct.n-1 {
				holds = !holds
			}
			conds[i] = e.boolean(e.term(&b.Cond))
			if !holds {
				conds[i] = e.c.Not(conds[i])
			}
		}
		lit := e.c.BoolVar("pc" + strconv.Itoa(int(t)))
		e.s.Assert(e.c.Implies(lit, e.c.And(conds...)))
		used, lits = append(used, t), append(lits, lit)
	}
	return used, lits
}

// value is a term's translation: an integer or a boolean.
type value struct {
	i      z3.Int
	b      z3.Bool
	isBool bool
}

// integer is v as an integer: a boolean is 1 or 0.
func (e *prefixEncoder) integer(v value) z3.Int {
	if v.isBool {
		return e.c.Ite(v.b, e.c.IntVal(1), e.c.IntVal(0))
	}
	return v.i
}

// boolean is v as a boolean: an integer is true when it is not 0.
func (e *prefixEncoder) boolean(v value) z3.Bool {
	if v.isBool {
		return v.b
	}
	return e.c.Not(e.c.Eq(v.i, e.c.IntVal(0)))
}

// term translates t (validated by analyzeMPC) over mathematical integers.
func (e *prefixEncoder) term(t *wire.MPCTerm) value {
	c := e.c
	ints := func() []z3.Int {
		xs := make([]z3.Int, len(t.Args))
		for i := range t.Args {
			xs[i] = e.integer(e.term(&t.Args[i]))
		}
		return xs
	}
	bools := func() []z3.Bool {
		ps := make([]z3.Bool, len(t.Args))
		for i := range t.Args {
			ps[i] = e.boolean(e.term(&t.Args[i]))
		}
		return ps
	}
	in := func(i z3.Int) value { return value{i: i} }
	is := func(b z3.Bool) value { return value{b: b, isBool: true} }
	switch t.Op {
	case wire.TermConst:
		return in(c.IntVal(t.V))
	case wire.TermInput:
		return in(e.input(int(t.V)))
	case wire.TermRead:
		return in(e.read(*t.Read))
	case "+":
		return in(c.Add(ints()...))
	case "*":
		return in(c.Mul(ints()...))
	case "-":
		xs := ints()
		d := xs[0]
		for _, y := range xs[1:] {
			d = c.Sub(d, y)
		}
		return in(d)
	case "neg":
		return in(c.Sub(c.IntVal(0), ints()[0]))
	case "==", "!=":
		a, b := e.term(&t.Args[0]), e.term(&t.Args[1])
		var eq z3.Bool
		if a.isBool && b.isBool {
			eq = c.Eq(a.b, b.b)
		} else {
			eq = c.Eq(e.integer(a), e.integer(b))
		}
		if t.Op == "!=" {
			eq = c.Not(eq)
		}
		return is(eq)
	case "<":
		xs := ints()
		return is(c.Lt(xs[0], xs[1]))
	case "<=":
		xs := ints()
		return is(c.Le(xs[0], xs[1]))
	case ">":
		xs := ints()
		return is(c.Gt(xs[0], xs[1]))
	case ">=":
		xs := ints()
		return is(c.Ge(xs[0], xs[1]))
	case "&&":
		return is(c.And(bools()...))
	case "||":
		return is(c.Or(bools()...))
	case "!":
		return is(c.Not(bools()[0]))
	case wire.TermIte:
		cond := e.boolean(e.term(&t.Args[0]))
		return in(c.Ite(cond, e.integer(e.term(&t.Args[1])), e.integer(e.term(&t.Args[2]))))
	}
	panic("mcr: term of unknown operation " + strconv.Quote(t.Op)) // analyzeMPC rejects it
}

// input returns the variable of input i, asserting its range the first
// time.
func (e *prefixEncoder) input(i int) z3.Int {
	if v := e.inputs[i]; v != (z3.Int{}) {
		return v
	}
	v := e.c.IntVar("in" + strconv.Itoa(i))
	in := e.x.q.Inputs[i]
	e.s.Assert(e.c.Le(e.c.IntVal(in.Min), v), e.c.Le(v, e.c.IntVal(in.Max)))
	e.inputs[i] = v
	return v
}

// read returns the value variable of read r, asserting its type's range
// the first time; its data constraint waits in pending. A read of an
// event outside the subtrace sets outside.
func (e *prefixEncoder) read(r wire.MPCRead) z3.Int {
	if v, ok := e.reads[r]; ok {
		return v
	}
	if !e.in[r.Event] && e.outside < 0 {
		e.outside = e.x.events[r.Event].T
	}
	v := e.c.IntVar(fmt.Sprintf("r%d.%d.%d.%d.%t", r.Event, r.Acc, r.Off, r.Size, r.Signed))
	lo, hi := typeRange(r.Size, r.Signed)
	e.s.Assert(e.c.Le(e.intVal(lo), v), e.c.Le(v, e.uintVal(hi)))
	e.reads[r] = v
	e.pending = append(e.pending, r)
	return v
}

// typeRange returns the bounds of a size-byte integer, the lower one as
// an int64 and the upper one as a uint64.
func typeRange(size uint8, signed bool) (int64, uint64) {
	bits := 8 * uint(size)
	if signed {
		return math.MinInt64 >> (64 - bits), math.MaxInt64 >> (64 - bits)
	}
	return 0, math.MaxUint64 >> (64 - bits)
}

func (e *prefixEncoder) intVal(v int64) z3.Int { return e.c.IntVal(v) }

func (e *prefixEncoder) uintVal(v uint64) z3.Int {
	if v <= math.MaxInt64 {
		return e.c.IntVal(int64(v))
	}
	return e.c.UintVal(v)
}

// decode is bytes [r.Off, r.Off+r.Size) of word v as the integer r reads:
// little-endian, sign-extended when r is signed.
func (e *prefixEncoder) decode(v uint64, r wire.MPCRead) z3.Int {
	bits := 8 * uint(r.Size)
	u := v >> (8 * uint(r.Off)) << (64 - bits) // the bytes, at the top
	if r.Signed {
		return e.intVal(int64(u) >> (64 - bits))
	}
	return e.uintVal(u >> (64 - bits))
}

// assertData asserts the data constraint of each read the formula uses,
// including the reads that the symbolic values of the writes they may
// read from use, transitively.
func (e *prefixEncoder) assertData() {
	for len(e.pending) > 0 && e.outside < 0 {
		r := e.pending[0]
		e.pending = e.pending[1:]
		if e.in[r.Event] {
			e.s.Assert(e.dataConstraint(r))
		}
	}
}

// dataConstraint says that read r returns the value of the last write of
// the subtrace to its bytes before it: a write w that touches them is
// ordered before r with each other such write before w or after r, and
// r's value is w's; or every such write is after r, and r's value is the
// location's initial value, free when it has none. The order is strict,
// so no write ties with r in the returned order.
func (e *prefixEncoder) dataConstraint(r wire.MPCRead) z3.Bool {
	c := e.c
	v := e.reads[r]
	a := e.x.events[r.Event].Acc[r.Acc]
	bytes := byteMask(r.Off, r.Size)
	var ws []write
	for _, w := range e.x.writes[a.Loc] {
		if e.in[w.e] && w.mask&bytes != 0 && w.e != r.Event && !e.tr.po(r.Event, w.e) {
			ws = append(ws, w)
		}
	}
	var cases []z3.Bool
	for _, w := range ws {
		if from, ok := e.readsFrom(r.Event, w.e, ws); ok {
			cases = append(cases, c.And(from, c.Eq(v, e.written(w, a.Loc, r))))
		}
	}
	if first, ok := e.readsInit(r.Event, ws); ok {
		if init, has := e.x.init[a.Loc]; has {
			first = c.And(first, c.Eq(v, e.decode(init, r)))
		}
		cases = append(cases, first)
	}
	return c.Or(cases...)
}

// written is the value read r gets from write w to location loc: the
// symbolic value of w's access to exactly r's bytes if it has one, else
// the bytes it wrote in the trace; a fresh variable (any value) when w
// writes only some of r's bytes, or has a symbolic value over some but not
// exactly r's.
func (e *prefixEncoder) written(w write, loc int32, r wire.MPCRead) z3.Int {
	bytes := byteMask(r.Off, r.Size)
	partial := w.mask&bytes != bytes
	for j, a := range e.x.events[w.e].Acc {
		if !a.Write || a.Loc != loc {
			continue
		}
		for _, s := range e.x.symbolic[access{w.e, int32(j)}] {
			if s.Off == r.Off && s.Size == r.Size && !partial {
				return e.integer(e.term(&s.Value))
			}
			if byteMask(s.Off, s.Size)&bytes != 0 {
				partial = true
			}
		}
	}
	if partial {
		return e.c.FreshInt("part")
	}
	return e.decode(w.v, r)
}

// assertOrder asserts program order and the After edges over the
// subtrace (closed under both: unclosed).
func (e *prefixEncoder) assertOrder() {
	for i, ev := range e.x.events {
		if !e.in[i] {
			continue
		}
		if p := e.x.prev[i]; p >= 0 {
			e.s.Assert(e.before(p, int32(i)))
		}
		for _, a := range ev.After {
			e.s.Assert(e.before(a, int32(i)))
		}
	}
}

// assertLocks asserts the mutual exclusion of the critical sections whose
// acquires are in the subtrace; one whose release is not holds its lock to
// the end.
func (e *prefixEncoder) assertLocks() {
	for _, obj := range e.x.locks {
		var rs []region
		for _, r := range e.x.regions[obj] {
			if !e.in[r.acq] {
				continue
			}
			if r.rel >= 0 && !e.in[r.rel] {
				r.rel = -1
			}
			rs = append(rs, r)
		}
		for i := range rs {
			for j := i + 1; j < len(rs); j++ {
				if p, ok := e.mutex(rs[i], rs[j]); ok {
					e.s.Assert(p)
				}
			}
		}
	}
}

// check checks the formula under the literals of threads ts and reads
// the answer: the subtrace's order and the inputs, the threads of an
// unsat core, or why Z3 gave up.
func (e *prefixEncoder) check(ts []int32, lits []z3.Bool) (wire.MPCResult, error) {
	st, err := e.s.CheckAssumptions(lits...)
	if err != nil {
		return wire.MPCResult{}, fmt.Errorf("checking: %w", err)
	}
	switch st {
	case z3.Unsat:
		idx, err := e.s.UnsatCore()
		if err != nil {
			return wire.MPCResult{}, fmt.Errorf("reading the unsat core: %w", err)
		}
		core := make([]int32, len(idx))
		for i, k := range idx {
			core[i] = ts[k]
		}
		return wire.MPCResult{Status: wire.MCRUnsat, Core: core}, nil
	case z3.Unknown:
		reason := e.s.ReasonUnknown()
		if reason == "" {
			reason = "unknown"
		}
		return wire.MPCResult{Status: wire.MCRUnknown, Reason: reason}, nil
	}
	m, err := e.s.Model()
	if err != nil {
		return wire.MPCResult{}, fmt.Errorf("reading the model: %w", err)
	}
	defer m.Close()
	if closer, err := e.closerToRun(m, lits); err != nil {
		return wire.MPCResult{}, err
	} else if closer != nil {
		defer closer.Close()
		m = closer
	}
	return e.answer(m)
}

// maxRetries bounds the checks closerToRun makes.
const maxRetries = 4

// closerToRun looks for a model that keeps more of the inputs the formula
// uses at their run's values than m does, so that a new run departs from
// the old one only where the prefix needs it: it checks again under the
// literals lits and an equality per input, and drops the equalities of
// each unsat core until a check is sat (at most maxRetries checks). It
// returns nil when m keeps them all already, or no check finds a model.
func (e *prefixEncoder) closerToRun(m *z3.Model, lits []z3.Bool) (*z3.Model, error) {
	var keep []z3.Bool
	moved := false
	for i, v := range e.inputs {
		if v == (z3.Int{}) {
			continue
		}
		run := e.x.q.Inputs[i].Value
		if got, ok := m.EvalInt(v); !ok || got != run {
			moved = true
		}
		keep = append(keep, e.c.Eq(v, e.c.IntVal(run)))
	}
	for try := 0; moved && len(keep) > 0 && try < maxRetries; try++ {
		all := append(slices.Clip(lits), keep...)
		st, err := e.s.CheckAssumptions(all...)
		if err != nil {
			return nil, fmt.Errorf("checking with the run's inputs: %w", err)
		}
		switch st {
		case z3.Sat:
			return e.s.Model()
		case z3.Unknown:
			return nil, nil
		}
		core, err := e.s.UnsatCore()
		if err != nil {
			return nil, fmt.Errorf("reading the unsat core: %w", err)
		}
		n := len(keep)
		for i := len(core) - 1; i >= 0; i-- { // the module's go 1.21 has no slices.Backward
			if k := core[i]; k >= len(lits) {
				keep = slices.Delete(keep, k-len(lits), k-len(lits)+1)
			}
		}
		if len(keep) == n {
			return nil, nil // the literals alone, sat a moment ago
		}
	}
	return nil, nil
}

// answer reads the model of a sat check: the subtrace's events sorted by
// order and then by trace index, and a value per input (its run's value
// when the formula does not use it).
func (e *prefixEncoder) answer(m *z3.Model) (wire.MPCResult, error) {
	type ordered struct {
		o int64
		e int32
	}
	var events []ordered
	for i, ok := range e.in {
		if !ok {
			continue
		}
		v, ok := m.EvalInt(e.o[i])
		if !ok {
			return wire.MPCResult{}, fmt.Errorf("the model gives no value to o%d", i)
		}
		events = append(events, ordered{v, int32(i)})
	}
	slices.SortFunc(events, func(a, b ordered) int {
		return cmp.Or(cmp.Compare(a.o, b.o), cmp.Compare(a.e, b.e))
	})
	res := wire.MPCResult{Status: wire.MCRSat, Prefix: make([]int32, len(events))}
	for i, p := range events {
		res.Prefix[i] = p.e
	}
	if len(e.inputs) > 0 {
		res.Inputs = make([]int64, len(e.inputs))
	}
	for i, v := range e.inputs {
		res.Inputs[i] = e.x.q.Inputs[i].Value
		if v == (z3.Int{}) {
			continue
		}
		var ok bool
		if res.Inputs[i], ok = m.EvalInt(v); !ok {
			return wire.MPCResult{}, fmt.Errorf("the model gives no value to input %d", i)
		}
	}
	return res, e.c.Err()
}
