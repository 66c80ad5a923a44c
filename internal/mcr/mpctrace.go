package mcr

import (
	"fmt"
	"math"

	"interleave.dev/rt/wire"
)

// mpcTrace is a validated MPCQuery: its trace analyzed as MCR's, with the
// symbolic parts indexed.
type mpcTrace struct {
	*trace
	q *wire.MPCQuery
	// branches holds each thread's branches in program order.
	branches map[int32][]wire.MPCBranch
	// symbolic holds the symbolic writes of each write access.
	symbolic map[access][]wire.MPCWrite
}

// access names access a of event e.
type access struct{ e, a int32 }

// analyzeMPC validates q and indexes it.
func analyzeMPC(q *wire.MPCQuery) (*mpcTrace, error) {
	tr, err := analyze(&wire.MCRQuery{Trace: q.Trace, TimeoutMillis: q.TimeoutMillis, BudgetMillis: q.BudgetMillis})
	if err != nil {
		return nil, err
	}
	x := &mpcTrace{
		trace:    tr,
		q:        q,
		branches: make(map[int32][]wire.MPCBranch),
		symbolic: make(map[access][]wire.MPCWrite),
	}
	for i, in := range q.Inputs {
		if in.Min > in.Max || in.Value < in.Min || in.Value > in.Max {
			return nil, fmt.Errorf("input %d: value %d, range [%d, %d]", i, in.Value, in.Min, in.Max)
		}
	}
	for i := range q.Writes {
		if err := x.addWrite(&q.Writes[i]); err != nil {
			return nil, fmt.Errorf("write %d: %w", i, err)
		}
	}
	for i := range q.Branches {
		if err := x.addBranch(&q.Branches[i]); err != nil {
			return nil, fmt.Errorf("branch %d: %w", i, err)
		}
	}
	for i, p := range q.Prefixes {
		if err := x.checkPrefix(p); err != nil {
			return nil, fmt.Errorf("prefix %d: %w", i, err)
		}
	}
	return x, nil
}

// addWrite validates and indexes a symbolic write.
func (x *mpcTrace) addWrite(w *wire.MPCWrite) error {
	a, err := x.memAccess(w.Event, w.Acc)
	if err != nil {
		return err
	}
	if !a.Write {
		return fmt.Errorf("access %d of event %d does not write", w.Acc, w.Event)
	}
	if err := checkBytes(a, w.Off, w.Size); err != nil {
		return err
	}
	k := access{w.Event, w.Acc}
	for _, o := range x.symbolic[k] {
		if o.Off == w.Off && o.Size == w.Size {
			return fmt.Errorf("a second value for bytes [%d, %d) of access %d of event %d", w.Off, w.Off+w.Size, w.Acc, w.Event)
		}
	}
	if err := x.checkTerm(&w.Value); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	x.symbolic[k] = append(x.symbolic[k], *w)
	return nil
}

// addBranch validates a branch and appends it to its thread's.
func (x *mpcTrace) addBranch(b *wire.MPCBranch) error {
	if b.T < 0 || int(b.T) >= x.q.Trace.Threads {
		return fmt.Errorf("thread %d out of range [0, %d)", b.T, x.q.Trace.Threads)
	}
	if b.After < -1 || int(b.After) >= len(x.events) {
		return fmt.Errorf("after event %d out of range [-1, %d)", b.After, len(x.events))
	}
	if b.After >= 0 && x.events[b.After].T != b.T {
		return fmt.Errorf("after event %d of thread %d, not of the branch's thread %d", b.After, x.events[b.After].T, b.T)
	}
	bs := x.branches[b.T]
	if n := len(bs); n > 0 && bs[n-1].After > b.After {
		return fmt.Errorf("after event %d, before the event %d of the thread's previous branch", b.After, bs[n-1].After)
	}
	if err := x.checkTerm(&b.Cond); err != nil {
		return fmt.Errorf("condition: %w", err)
	}
	x.branches[b.T] = append(bs, *b)
	return nil
}

// checkPrefix validates the cuts of a prefix.
func (x *mpcTrace) checkPrefix(p wire.MPCPrefix) error {
	cut := make(map[int32]bool)
	for _, c := range p.Cuts {
		switch n := len(x.branches[c.T]); {
		case c.T < 0 || int(c.T) >= x.q.Trace.Threads:
			return fmt.Errorf("cut of thread %d, out of range [0, %d)", c.T, x.q.Trace.Threads)
		case cut[c.T]:
			return fmt.Errorf("two cuts of thread %d", c.T)
		case c.N < 0 || int(c.N) > n:
			return fmt.Errorf("cut of thread %d after branch %d, out of range [0, %d]", c.T, c.N, n)
		case c.N == 0 && c.Negate:
			return fmt.Errorf("cut of thread %d after no branch negates one", c.T)
		case c.Until < 0 || int(c.Until) > len(x.events):
			return fmt.Errorf("cut of thread %d until event %d, out of range [0, %d]", c.T, c.Until, len(x.events))
		case c.Until > 0 && c.Negate:
			return fmt.Errorf("cut of thread %d until event %d negates a branch", c.T, c.Until)
		case c.Until > 0 && (c.N > 0 && x.branches[c.T][c.N-1].After >= c.Until || int(c.N) < n && x.branches[c.T][c.N].After < c.Until):
			return fmt.Errorf("cut of thread %d until event %d keeps %d branches, not the ones before it", c.T, c.Until, c.N)
		}
		cut[c.T] = true
	}
	return nil
}

// Arities of the operations of terms: the least number of arguments and
// the most (-1: no bound).
var arity = map[string][2]int{
	wire.TermConst: {0, 0}, wire.TermInput: {0, 0}, wire.TermRead: {0, 0},
	"+": {2, -1}, "-": {2, -1}, "*": {2, -1}, "neg": {1, 1},
	"==": {2, 2}, "!=": {2, 2}, "<": {2, 2}, "<=": {2, 2}, ">": {2, 2}, ">=": {2, 2},
	"&&": {2, -1}, "||": {2, -1}, "!": {1, 1}, wire.TermIte: {3, 3},
}

// checkTerm validates a term: known operations with the right number of
// arguments, inputs that exist, reads of read accesses. (JSON nests at
// most 10000 deep, which bounds the recursion.)
func (x *mpcTrace) checkTerm(t *wire.MPCTerm) error {
	ar, ok := arity[t.Op]
	switch {
	case !ok:
		return fmt.Errorf("unknown operation %q", t.Op)
	case len(t.Args) < ar[0] || (ar[1] >= 0 && len(t.Args) > ar[1]):
		return fmt.Errorf("operation %q with %d arguments", t.Op, len(t.Args))
	}
	switch t.Op {
	case wire.TermInput:
		if t.V < 0 || t.V >= int64(len(x.q.Inputs)) {
			return fmt.Errorf("input %d out of range [0, %d)", t.V, len(x.q.Inputs))
		}
	case wire.TermRead:
		if t.Read == nil {
			return fmt.Errorf("read term with no read")
		}
		if err := x.checkRead(t.Read); err != nil {
			return err
		}
	}
	for i := range t.Args {
		if err := x.checkTerm(&t.Args[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkRead validates a read: bytes of a read access.
func (x *mpcTrace) checkRead(r *wire.MPCRead) error {
	a, err := x.memAccess(r.Event, r.Acc)
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if !a.Read {
		return fmt.Errorf("read: access %d of event %d does not read", r.Acc, r.Event)
	}
	if err := checkBytes(a, r.Off, r.Size); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

// memAccess returns access a of event e.
func (x *mpcTrace) memAccess(e, a int32) (*wire.MCRMemAccess, error) {
	if e < 0 || int(e) >= len(x.events) {
		return nil, fmt.Errorf("event %d out of range [0, %d)", e, len(x.events))
	}
	acc := x.events[e].Acc
	if a < 0 || int(a) >= len(acc) {
		return nil, fmt.Errorf("access %d of event %d out of range [0, %d)", a, e, len(acc))
	}
	return &acc[a], nil
}

// checkBytes validates bytes [off, off+size) of access a: a word's, and
// under its mask.
func checkBytes(a *wire.MCRMemAccess, off, size uint8) error {
	if size < 1 || size > 8 || int(off)+int(size) > 8 {
		return fmt.Errorf("bytes [%d, %d) of a word: size not in 1..8 or past the 8th byte", off, int(off)+int(size))
	}
	if m := byteMask(off, size); a.Mask&m != m {
		return fmt.Errorf("bytes [%d, %d) outside the access's mask %#x", off, off+size, a.Mask)
	}
	return nil
}

// byteMask is the mask of bytes [off, off+size) of a word (size 1 to 8,
// off+size at most 8).
func byteMask(off, size uint8) uint64 {
	return math.MaxUint64 >> (64 - 8*uint(size)) << (8 * uint(off))
}
