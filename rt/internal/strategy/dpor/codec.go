package dpor

import (
	"encoding/binary"
	"errors"
	"fmt"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// The results of a split dpor search's jobs (dporsplit.go) travel
// between processes in a compact binary form: each process merges every
// result of a round into its own copy of the skeleton (the merge depends
// only on the results), so that only results, never jobs, are written.
// Numbers are varints; a result of a one-execution job of the textbook
// programs takes about a kilobyte.

// MarshalBinary encodes r (its job is told by its round and index).
func (r *Result) MarshalBinary() ([]byte, error) {
	var e enc
	e.int(r.Job.Round)
	e.int(r.Job.Index)
	e.int(r.Executions)
	e.bools(r.Finding, r.Ended, r.Incomplete, r.leaf)
	e.int(r.SleepBlocked)
	e.int(r.Diverged)
	e.events(r.fp)
	e.int(len(r.created))
	for i := range r.created {
		e.node(&r.created[i])
	}
	e.int(len(r.races))
	for _, rc := range r.races {
		e.int(int(rc.Node))
		e.int(int(rc.G))
		e.int32s(rc.Init)
		e.bools(rc.W != nil)
		if rc.W != nil {
			e.wseq(rc.W)
		}
	}
	return e.b, nil
}

// UnmarshalResult decodes a result encoded by MarshalBinary; job
// returns the job of a round and index (nil: unknown).
func UnmarshalResult(b []byte, job func(round, index int) *Job) (*Result, error) {
	d := dec{b: b}
	round, index := d.int(), d.int()
	r := &Result{Job: job(round, index)}
	if d.err == nil && r.Job == nil {
		return nil, fmt.Errorf("the result of job %d.%d, which this process does not know", round, index)
	}
	r.Executions = d.int()
	f := d.bools(4)
	r.Finding, r.Ended, r.Incomplete, r.leaf = f[0], f[1], f[2], f[3]
	r.SleepBlocked, r.Diverged = d.int(), d.int()
	r.fp = d.events()
	for n := d.count(); n > 0 && d.err == nil; n-- {
		r.created = append(r.created, d.node())
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		rc := dporRace{Node: int32(d.int()), G: int32(d.int()), Init: d.int32s()}
		if d.bools(1)[0] {
			rc.W = d.wseq()
		}
		r.races = append(r.races, rc)
	}
	if d.err == nil && len(d.b) > 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return nil, fmt.Errorf("decoding a dpor job's result: %w", d.err)
	}
	return r, nil
}

type enc struct{ b []byte }

func (e *enc) int(x int) { e.b = binary.AppendVarint(e.b, int64(x)) }

func (e *enc) bools(bs ...bool) {
	var x uint64
	for i, b := range bs {
		if b {
			x |= 1 << i
		}
	}
	e.b = binary.AppendUvarint(e.b, x)
}

func (e *enc) boolSlice(bs []bool) {
	e.int(len(bs))
	for i := 0; i < len(bs); i += 64 {
		e.bools(bs[i:min(i+64, len(bs))]...)
	}
}

func (e *enc) int32s(xs []int32) {
	e.int(len(xs))
	for _, x := range xs {
		e.int(int(x))
	}
}

func (e *enc) ints(xs []int) {
	e.int(len(xs))
	for _, x := range xs {
		e.int(x)
	}
}

func (e *enc) events(evs []event.Event) {
	if evs == nil {
		e.int(-1)
		return
	}
	e.int(len(evs))
	for _, ev := range evs {
		e.int(int(ev.G))
		e.int(int(ev.Op))
		e.int(int(ev.Obj))
		e.b = binary.AppendUvarint(e.b, uint64(ev.Site))
	}
}

func (e *enc) node(n *dnode) {
	e.int(int(n.kind))
	e.int32s(n.gs)
	e.int(n.chosen)
	e.boolSlice(n.backtrack)
	e.boolSlice(n.done)
	e.int(len(n.fps))
	for _, fp := range n.fps {
		e.events(fp)
	}
	e.int(len(n.sleep))
	for _, sl := range n.sleep {
		e.int(int(sl.g))
		e.events(sl.fp)
		e.int(int(sl.maxObj))
		e.int(int(sl.minObj))
	}
	e.int(int(n.maxObj))
	e.int(int(n.minObj))
	e.int(int(n.cur))
	e.int(int(n.pre))
	e.ints(n.order)
	e.int32s(n.rank)
	e.int(int(n.started))
	if n.sub == nil {
		e.int(-1)
	} else {
		// Only an option to explore reads its subtree.
		e.int(len(n.sub))
		for k, w := range n.sub {
			if n.done[k] {
				w = nil
			}
			e.wnode(w)
		}
	}
}

func (e *enc) wnode(w *wnode) {
	if w == nil {
		e.bools(false)
		return
	}
	e.bools(true, w.known)
	e.int(int(w.g))
	e.events(w.fp)
	e.int32s(w.sel)
	e.int(len(w.kids))
	for _, k := range w.kids {
		e.wnode(k)
	}
}

func (e *enc) wseq(w *wseq) {
	e.int(len(w.v))
	for _, st := range w.v {
		e.bools(st.known)
		e.int(int(st.g))
		e.events(st.fp)
		e.int32s(st.sel)
		e.int(int(st.tr))
	}
	e.boolSlice(w.beforeLast)
	e.boolSlice(w.rm)
	// The clocks, in the order of the steps' transitions.
	var trs []int32
	seen := map[int32]bool{}
	for _, st := range w.v {
		if st.tr >= 0 && !seen[st.tr] {
			seen[st.tr] = true
			trs = append(trs, st.tr)
		}
	}
	e.int(len(trs))
	for _, tr := range trs {
		c := w.trs[tr]
		e.int(int(tr))
		e.int(int(c.g))
		e.int(int(c.li))
		e.int(len(c.vc))
		for _, x := range c.vc {
			e.int(int(x))
		}
	}
}

// dec decodes what enc encoded; the first error sticks, and everything
// read after it is zero.
type dec struct {
	b   []byte
	err error
}

func (d *dec) int() int {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errors.New("truncated")
		return 0
	}
	d.b = d.b[n:]
	return int(x)
}

// count reads a length, bounded by what is left to read (each element
// takes a byte at least).
func (d *dec) count() int {
	n := d.int()
	if n < 0 || n > len(d.b) {
		if d.err == nil && n != 0 {
			d.err = errors.New("bad length")
		}
		return 0
	}
	return n
}

func (d *dec) bools(n int) []bool {
	out := make([]bool, n)
	if d.err != nil {
		return out
	}
	x, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.err = errors.New("truncated")
		return out
	}
	d.b = d.b[k:]
	for i := range out {
		out[i] = x&(1<<i) != 0
	}
	return out
}

func (d *dec) boolSlice() []bool {
	n := d.int()
	if n < 0 || n > 8*len(d.b)+64 {
		if d.err == nil {
			d.err = errors.New("bad length")
		}
		return nil
	}
	out := make([]bool, 0, n)
	for i := 0; i < n && d.err == nil; i += 64 {
		out = append(out, d.bools(min(64, n-i))...)
	}
	return out
}

func (d *dec) int32s() []int32 {
	n := d.count()
	var out []int32
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, int32(d.int()))
	}
	return out
}

func (d *dec) ints() []int {
	n := d.count()
	var out []int
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, d.int())
	}
	return out
}

func (d *dec) events() []event.Event {
	n := d.int()
	if n == -1 || d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.err = errors.New("bad length")
		return nil
	}
	out := make([]event.Event, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		ev := event.Event{G: int32(d.int()), Op: event.Op(d.int()), Obj: int32(d.int())}
		site, k := binary.Uvarint(d.b)
		if k <= 0 {
			d.err = errors.New("truncated")
			break
		}
		d.b = d.b[k:]
		ev.Site = uint32(site)
		out = append(out, ev)
	}
	return out
}

func (d *dec) node() dnode {
	n := dnode{kind: strategy.Kind(d.int()), gs: d.int32s(), chosen: d.int(), backtrack: d.boolSlice(), done: d.boolSlice()}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		n.fps = append(n.fps, d.events())
	}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		n.sleep = append(n.sleep, sleeper{g: int32(d.int()), fp: d.events(), maxObj: int32(d.int()), minObj: int32(d.int())})
	}
	n.maxObj, n.minObj, n.cur, n.pre = int32(d.int()), int32(d.int()), int32(d.int()), int32(d.int())
	n.order, n.rank, n.started = d.ints(), d.int32s(), int32(d.int())
	if k := d.int(); k >= 0 && k <= len(d.b) {
		n.sub = make([]*wnode, k)
		for i := range n.sub {
			n.sub[i] = d.wnode()
		}
	}
	if d.err == nil && (len(n.backtrack) != len(n.done) || len(n.rank) != len(n.done) || n.kind == strategy.Thread && len(n.gs) != len(n.done) || n.chosen < 0 || n.chosen >= len(n.done)) {
		d.err = errors.New("inconsistent node")
	}
	return n
}

func (d *dec) wnode() *wnode {
	f := d.bools(2)
	if !f[0] || d.err != nil {
		return nil
	}
	w := &wnode{known: f[1], g: int32(d.int()), fp: d.events(), sel: d.int32s()}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		w.kids = append(w.kids, d.wnode())
	}
	return w
}

func (d *dec) wseq() *wseq {
	w := &wseq{trs: map[int32]trClock{}}
	for k := d.count(); k > 0 && d.err == nil; k-- {
		known := d.bools(1)[0]
		st := vstep{wnode: wnode{known: known, g: int32(d.int()), fp: d.events(), sel: d.int32s()}}
		st.tr = int32(d.int())
		w.v = append(w.v, st)
	}
	w.beforeLast, w.rm = d.boolSlice(), d.boolSlice()
	for k := d.count(); k > 0 && d.err == nil; k-- {
		tr := int32(d.int())
		c := trClock{g: int32(d.int()), li: uint32(d.int())}
		for m := d.count(); m > 0 && d.err == nil; m-- {
			c.vc = append(c.vc, uint32(d.int()))
		}
		w.trs[tr] = c
	}
	if d.err == nil && (len(w.beforeLast) != len(w.v) || len(w.rm) != len(w.v)) {
		d.err = errors.New("inconsistent sequence")
	}
	return w
}
