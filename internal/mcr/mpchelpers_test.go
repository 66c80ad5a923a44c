package mcr

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"interleave.dev/rt/wire"
)

// mpcBuilder makes MPC queries by hand: a trace (builder) with inputs,
// symbolic writes and branches.
type mpcBuilder struct {
	builder
	q wire.MPCQuery
}

// input adds an input in [min, max] whose run's value was v and returns
// its term.
func (b *mpcBuilder) input(min, max, v int64) wire.MPCTerm {
	b.q.Inputs = append(b.q.Inputs, wire.MPCInput{Min: min, Max: max, Value: v})
	return wire.MPCTerm{Op: wire.TermInput, V: int64(len(b.q.Inputs) - 1)}
}

// symWrite adds an event of thread t writing v (its trace value wv) to
// the whole 8-byte word loc.
func (b *mpcBuilder) symWrite(t, loc int32, wv uint64, v wire.MPCTerm) int32 {
	e := b.write(t, loc, wv)
	b.q.Writes = append(b.q.Writes, wire.MPCWrite{Event: e, Size: 8, Value: v})
	return e
}

// branch adds a branch of thread t after event after.
func (b *mpcBuilder) branch(t, after int32, cond wire.MPCTerm, taken bool) {
	b.q.Branches = append(b.q.Branches, wire.MPCBranch{T: t, After: after, Cond: cond, Taken: taken})
}

// query returns the query of the prefixes.
func (b *mpcBuilder) query(ps ...wire.MPCPrefix) *wire.MPCQuery {
	q := b.q
	q.MPC = true
	q.Trace = b.tr
	q.Prefixes = ps
	return &q
}

// Terms.
func cnst(v int64) wire.MPCTerm { return wire.MPCTerm{Op: wire.TermConst, V: v} }

// rdv is the signed 8-byte value of the first access of event e.
func rdv(e int32) wire.MPCTerm {
	return wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{Event: e, Size: 8, Signed: true}}
}

func op(o string, args ...wire.MPCTerm) wire.MPCTerm { return wire.MPCTerm{Op: o, Args: args} }

// prefix makes a prefix of cuts.
func prefix(cuts ...wire.MPCCut) wire.MPCPrefix { return wire.MPCPrefix{Cuts: cuts} }

func cut(t, n int32, neg bool) wire.MPCCut { return wire.MPCCut{T: t, N: n, Negate: neg} }

// solveMPCChecked solves q, expecting no error and one result per prefix,
// and checks every sat result with checkMPC.
func solveMPCChecked(t testing.TB, q *wire.MPCQuery) []wire.MPCResult {
	t.Helper()
	a := SolveMPC(q)
	if a.Error != "" {
		t.Fatalf("SolveMPC: %s", a.Error)
	}
	if len(a.Results) != len(q.Prefixes) {
		t.Fatalf("%d results for %d prefixes", len(a.Results), len(q.Prefixes))
	}
	for i, r := range a.Results {
		if r.Micros < 0 {
			t.Errorf("prefix %d: negative time %d", i, r.Micros)
		}
		if r.Status != wire.MCRSat {
			if r.Prefix != nil || r.Inputs != nil {
				t.Errorf("prefix %d: %s with a schedule %v or inputs %v", i, r.Status, r.Prefix, r.Inputs)
			}
			continue
		}
		if err := checkMPC(q, q.Prefixes[i], r); err != nil {
			t.Errorf("prefix %d %+v: %+v: %v", i, q.Prefixes[i], r, err)
		}
	}
	return a.Results
}

// wantMPC checks the status and core of each result (a nil core: any).
func wantMPC(t *testing.T, rs []wire.MPCResult, want ...wire.MPCResult) {
	t.Helper()
	for i, r := range rs {
		if r.Status != want[i].Status || want[i].Core != nil && !slices.Equal(r.Core, want[i].Core) {
			t.Errorf("prefix %d: %s core %v (%s), want %s core %v", i, r.Status, r.Core, r.Reason, want[i].Status, want[i].Core)
		}
	}
}

var mpcSat = wire.MPCResult{Status: wire.MCRSat}

func mpcUnsat(core ...int32) wire.MPCResult {
	if core == nil {
		core = []int32{}
	}
	return wire.MPCResult{Status: wire.MCRUnsat, Core: core}
}

// checkMPC replays the schedule of a sat result with its inputs and
// reports the first way it does not take prefix p: a schedule that is not
// the subtrace's events, an event before the previous event of its thread
// or before an event it must follow, a lock acquired while held, an input
// out of range, or a kept branch whose condition, evaluated over the
// inputs and the values the replay's reads return (symbolic writes write
// their values), does not go the way p says. A read of bytes that nothing
// wrote and that have no initial value is an error too (the tests give
// their locations initial values).
func checkMPC(q *wire.MPCQuery, p wire.MPCPrefix, r wire.MPCResult) error {
	return checkMPCOf(q, p, r, nil)
}

// checkMPCOf is checkMPC checking the branches of the threads in only
// (nil: all).
func checkMPCOf(q *wire.MPCQuery, p wire.MPCPrefix, r wire.MPCResult, only map[int32]bool) error {
	tr := &q.Trace
	branches := make(map[int32][]wire.MPCBranch)
	for _, b := range q.Branches {
		branches[b.T] = append(branches[b.T], b)
	}
	last := make(map[int32]int32) // a cut thread's last event kept
	kept := make(map[int32]int)   // a cut thread's branches kept
	neg := make(map[int32]bool)
	for _, c := range p.Cuts {
		last[c.T], kept[c.T], neg[c.T] = -1, int(c.N), c.Negate
		switch {
		case c.Until > 0:
			last[c.T] = c.Until - 1
		case c.N > 0:
			last[c.T] = branches[c.T][c.N-1].After
		}
	}
	var sub []int32
	for i, ev := range tr.Events {
		if l, cut := last[ev.T]; !cut || int32(i) <= l {
			sub = append(sub, int32(i))
		}
	}
	if got := slices.Sorted(slices.Values(r.Prefix)); !slices.Equal(got, sub) {
		return fmt.Errorf("schedule of events %v, want the subtrace %v", got, sub)
	}
	if len(r.Inputs) != len(q.Inputs) {
		return fmt.Errorf("%d inputs, want %d", len(r.Inputs), len(q.Inputs))
	}
	for i, in := range q.Inputs {
		if v := r.Inputs[i]; v < in.Min || v > in.Max {
			return fmt.Errorf("input %d = %d outside [%d, %d]", i, v, in.Min, in.Max)
		}
	}
	sym := make(map[[2]int32]wire.MPCWrite)
	for _, w := range q.Writes {
		sym[[2]int32{w.Event, w.Acc}] = w
	}
	reads := make(map[wire.MPCRead]*big.Int)
	ev := &evaluator{inputs: r.Inputs, reads: reads}
	mem := newMemory(tr)
	done := make(map[int32]bool)
	holder := make(map[int32]int32) // exclusive lock -> thread, absent when free
	shared := make(map[int32]int)   // lock -> read locks held
	lastOf := make(map[int32]int32)
	for _, e := range r.Prefix {
		evt := tr.Events[e]
		if l, ok := lastOf[evt.T]; ok && l > e {
			return fmt.Errorf("event %d out of its thread's program order", e)
		}
		lastOf[evt.T] = e
		for _, a := range evt.After {
			if !done[a] {
				return fmt.Errorf("event %d runs before %d, which it must follow", e, a)
			}
		}
		switch {
		case evt.K == wire.MCRAcquire && evt.Shared:
			if _, held := holder[evt.Obj]; held {
				return fmt.Errorf("event %d read-locks %d while it is held", e, evt.Obj)
			}
			shared[evt.Obj]++
		case evt.K == wire.MCRAcquire:
			if _, held := holder[evt.Obj]; held || shared[evt.Obj] > 0 {
				return fmt.Errorf("event %d locks %d while it is held", e, evt.Obj)
			}
			holder[evt.Obj] = evt.T
		case evt.K == wire.MCRRelease && evt.Shared:
			shared[evt.Obj]--
		case evt.K == wire.MCRRelease:
			delete(holder, evt.Obj)
		}
		// Reads first: the values of the reads of this event.
		for _, rd := range readsOf(q, e) {
			a := evt.Acc[rd.Acc]
			bytes := byteMask(rd.Off, rd.Size)
			if mem.known[a.Loc]&bytes != bytes {
				return fmt.Errorf("event %d reads unwritten bytes of location %d", e, a.Loc)
			}
			reads[rd] = decodeWord(mem.val[a.Loc], rd)
		}
		for j, a := range evt.Acc {
			if !a.Write {
				continue
			}
			v := a.WV
			if w, ok := sym[[2]int32{e, int32(j)}]; ok {
				x, err := ev.eval(&w.Value)
				if err != nil {
					return fmt.Errorf("event %d's symbolic write: %v", e, err)
				}
				m := byteMask(w.Off, w.Size)
				bits := x.Uint64()
				if x.IsInt64() {
					bits = uint64(x.Int64()) // two's complement
				}
				v = v&^m | bits<<(8*uint(w.Off))&m
			}
			mem.apply([]wire.MCRMemAccess{{Loc: a.Loc, Mask: a.Mask, Write: true, WV: v}})
		}
		done[e] = true
	}
	for t, bs := range branches {
		if only != nil && !only[t] {
			continue
		}
		n, cut := kept[t]
		if !cut {
			n = len(bs)
		}
		for i, b := range bs[:n] {
			want := b.Taken
			if cut && neg[t] && i == n-1 {
				want = !want
			}
			got, err := ev.eval(&b.Cond)
			if err != nil {
				return fmt.Errorf("thread %d branch %d: %v", t, i, err)
			}
			if (got.Sign() != 0) != want {
				return fmt.Errorf("thread %d branch %d: condition %d, want taken %v", t, i, got, want)
			}
		}
	}
	return nil
}

// readsOf lists the reads of event e that q's terms name.
func readsOf(q *wire.MPCQuery, e int32) []wire.MPCRead {
	var out []wire.MPCRead
	var walk func(t *wire.MPCTerm)
	walk = func(t *wire.MPCTerm) {
		if t.Read != nil && t.Read.Event == e && !slices.Contains(out, *t.Read) {
			out = append(out, *t.Read)
		}
		for i := range t.Args {
			walk(&t.Args[i])
		}
	}
	for i := range q.Branches {
		walk(&q.Branches[i].Cond)
	}
	for i := range q.Writes {
		walk(&q.Writes[i].Value)
	}
	return out
}

// decodeWord is bytes [r.Off, r.Off+r.Size) of v as r reads them.
func decodeWord(v uint64, r wire.MPCRead) *big.Int {
	bits := 8 * uint(r.Size)
	u := v >> (8 * uint(r.Off)) << (64 - bits)
	if r.Signed {
		return big.NewInt(int64(u) >> (64 - bits))
	}
	return new(big.Int).SetUint64(u >> (64 - bits))
}

// evaluator evaluates terms over mathematical integers.
type evaluator struct {
	inputs []int64
	reads  map[wire.MPCRead]*big.Int
}

func (x *evaluator) eval(t *wire.MPCTerm) (*big.Int, error) {
	args := make([]*big.Int, len(t.Args))
	truth := make([]bool, len(t.Args))
	for i := range t.Args {
		v, err := x.eval(&t.Args[i])
		if err != nil {
			return nil, err
		}
		args[i], truth[i] = v, v.Sign() != 0
	}
	b := func(p bool) *big.Int {
		if p {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	cmp := 0
	if len(args) == 2 {
		cmp = args[0].Cmp(args[1])
	}
	switch t.Op {
	case wire.TermConst:
		return big.NewInt(t.V), nil
	case wire.TermInput:
		return big.NewInt(x.inputs[t.V]), nil
	case wire.TermRead:
		v, ok := x.reads[*t.Read]
		if !ok {
			return nil, fmt.Errorf("read %+v has not run", *t.Read)
		}
		return v, nil
	case "+", "*", "-":
		acc := new(big.Int).Set(args[0])
		for _, a := range args[1:] {
			switch t.Op {
			case "+":
				acc.Add(acc, a)
			case "*":
				acc.Mul(acc, a)
			case "-":
				acc.Sub(acc, a)
			}
		}
		return acc, nil
	case "&&":
		return b(!slices.Contains(truth, false)), nil
	case "||":
		return b(slices.Contains(truth, true)), nil
	case wire.TermIte:
		if truth[0] {
			return args[1], nil
		}
		return args[2], nil
	case "neg":
		return new(big.Int).Neg(args[0]), nil
	case "!":
		return b(!truth[0]), nil
	case "==":
		return b(cmp == 0), nil
	case "!=":
		return b(cmp != 0), nil
	case "<":
		return b(cmp < 0), nil
	case "<=":
		return b(cmp <= 0), nil
	case ">":
		return b(cmp > 0), nil
	case ">=":
		return b(cmp >= 0), nil
	}
	return nil, fmt.Errorf("unknown operation %q", t.Op)
}
