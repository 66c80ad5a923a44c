package dpor

import (
	"sort"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// hb tracks the happens-before order of one execution as event.Conflicts
// defines it (the Mazurkiewicz order, not Go's memory model): a
// transition happens after the earlier transitions of its goroutine, after
// every earlier conflicting transition, and after the transition that
// started or woke it. Vector clocks over goroutines (the timer is
// goroutine 0) make "does j happen before p's next step" a lookup
// (Flanagan and Godefroid 2005, section 4).
//
// A transition is what one goroutine does between two choice points: the
// events it executes in a row with no Thread choice between them. Merging
// events no other goroutine could be scheduled between only makes
// footprints larger, which is conservative. With merge false, every event
// is its own transition (used to count traces).
type hb struct {
	merge bool
	limit int // transitions kept; past it the tracker is off
	off   bool
	tr    []htrans
	ths   []hthread         // by goroutine id
	byObj map[int32][]int32 // transitions touching each object
	byMod map[int32][]int32 // transitions modifying each object (a read conflicts with these only)
	// gl1 is the last transition with a Global event, gl2 the last one of
	// a goroutine other than gl1's (-1: none): the last global transition
	// of a goroutine other than g is one of them.
	gl1, gl2 int32
	open     bool  // the last transition may still grow
	cur      int32 // index of the executing transition (-1: none)
	maxObj   int32 // highest object id seen
	minObj   int32 // lowest (memory words are numbered from -1 down)
	parent   map[int32]int32
	raceBuf  []int32
	// lastFP is what the last executed event added to its transition:
	// the goroutine's pending events and the event (never reused).
	lastFP []event.Event
}

type htrans struct {
	g    int32
	li   uint32 // its number among g's transitions, from 1
	fp   []event.Event
	vc   []uint32
	node int32 // the Thread choice point right before it, or -1
	// A merged transition's footprint holds each operation on an object
	// once (conflicts do not depend on the site). Past smallFootprint
	// events, seen indexes it, objs summarizes it per object and global
	// says whether an event of it is global, so that checking a later
	// event against it costs O(1): a goroutine that runs alone for a
	// million operations is one transition.
	seen   map[uint64]struct{} // op<<32 | object
	objs   map[int32]uint8     // object -> footRead | footMod | footRLock
	global bool
}

// smallFootprint is the size up to which a footprint is scanned.
const smallFootprint = 16

// The kinds of operations a transition performs on an object.
const (
	footRead  uint8 = 1 << iota // operations that do not modify it
	footMod                     // operations that modify it, but RLock
	footRLock                   // RLock
)

// footKind is the kind of e, an event that is not global.
func footKind(e event.Event) uint8 {
	switch {
	case e.Op == event.OpRLock:
		return footRLock
	case e.Op.Modifies():
		return footMod
	}
	return footRead
}

func footKey(e event.Event) uint64 { return uint64(e.Op)<<32 | uint64(uint32(e.Obj)) }

// has reports whether t's footprint holds an event like e (the same
// operation on the same object).
func (t *htrans) has(e event.Event) bool {
	if t.seen != nil {
		_, ok := t.seen[footKey(e)]
		return ok
	}
	for _, f := range t.fp {
		if f.Op == e.Op && f.Obj == e.Obj {
			return true
		}
	}
	return false
}

// index adds the footprint's events from k on to its index, building the
// index once the footprint is past smallFootprint.
func (t *htrans) index(k int) {
	if t.seen == nil {
		if len(t.fp) < smallFootprint {
			return
		}
		t.seen, t.objs, k = map[uint64]struct{}{}, map[int32]uint8{}, 0
	}
	for _, f := range t.fp[k:] {
		t.seen[footKey(f)] = struct{}{}
		switch {
		case f.Global():
			t.global = true
		case f.Obj != 0:
			t.objs[f.Obj] |= footKind(f)
		}
	}
}

type hthread struct {
	vc     []uint32
	n      uint32
	pend   []event.Event // footprint of its next operation
	wakeBy int32         // transition that started or woke it, or -1
	last   int32         // its last transition, or -1
	seen   bool
}

func newHB(merge bool, limit int) *hb {
	return &hb{merge: merge, limit: limit, gl1: -1, gl2: -1}
}

func (h *hb) reset() {
	h.off = false
	h.tr = h.tr[:0]
	for i := range h.ths {
		h.ths[i] = hthread{vc: h.ths[i].vc[:0], pend: h.ths[i].pend[:0], wakeBy: -1, last: -1}
	}
	h.byObj = map[int32][]int32{}
	h.byMod = map[int32][]int32{}
	h.parent = map[int32]int32{}
	h.gl1, h.gl2 = -1, -1
	h.open = false
	h.cur = -1
	h.maxObj, h.minObj = 0, 0
}

func (h *hb) thread(g int32) *hthread {
	for int(g) >= len(h.ths) {
		h.ths = append(h.ths, hthread{wakeBy: -1, last: -1})
	}
	t := &h.ths[g]
	t.seen = true
	return t
}

func (h *hb) see(ev event.Event) {
	h.maxObj, h.minObj = max(h.maxObj, ev.Obj), min(h.minObj, ev.Obj)
}

// hbBefore reports whether transition j happens before the next step of
// goroutine g.
func (h *hb) hbBefore(j int32, g int32) bool {
	t := &h.tr[j]
	vc := h.ths[g].vc
	return int(t.g) < len(vc) && vc[t.g] >= t.li
}

// lastRace returns the last transition of another goroutine that conflicts
// with e (the next step of e.G) and does not happen before it, or -1.
func (h *hb) lastRace(e event.Event) int32 {
	best := int32(-1)
	for _, j := range h.races(e, false) {
		best = max(best, j)
	}
	return best
}

// races returns the transitions of other goroutines that conflict with e
// (the next step of e.G) and do not happen before it. With all, it
// returns every race of e, none happening before another (operations
// that commute with each other, two read-locks, can race with e side by
// side, and each race must be reversed), and leaves out the Unlock a
// waiting Lock cannot run before (releases): such a Lock races with the
// acquire before it. Else it returns the last race on e's object and the
// last global transition of another goroutine, if they race with e.
// The slice is reused by the next call.
func (h *hb) races(e event.Event, all bool) []int32 {
	out := h.raceBuf[:0]
	add := func(j int32) {
		if j < 0 || h.tr[j].g == e.G || h.hbBefore(j, e.G) {
			return
		}
		for _, k := range out {
			if k == j || (all && h.trBefore(j, k)) {
				return
			}
		}
		out = append(out, j)
	}
	if e.Global() {
		// The last transition of each other goroutine: when it happens
		// before e, so do the goroutine's earlier ones.
		last := make([]int32, 0, len(h.ths))
		for q := range h.ths {
			if l := h.ths[q].last; l >= 0 {
				last = append(last, l)
			}
		}
		sort.Slice(last, func(a, b int) bool { return last[a] > last[b] })
		for _, j := range last {
			add(j)
			if len(out) > 0 && !all {
				break
			}
		}
		h.raceBuf = out
		return out
	}
	if e.Obj != 0 {
		l := h.touching(e)
		for k := len(l) - 1; k >= 0; k-- {
			j := l[k]
			if h.tr[j].g == e.G {
				if h.dominates(j, e.Obj) {
					break // program order covers what came before j
				}
				continue
			}
			if !h.conflicts(j, e) || (all && h.releases(j, e)) {
				continue
			}
			n := len(out)
			add(j)
			if !all && len(out) > n {
				break
			}
			if h.dominates(j, e.Obj) {
				break // what came before j on the object happens before it
			}
		}
	}
	// The last global transition of another goroutine happens after every
	// earlier one.
	add(h.lastGlobalOther(e.G))
	h.raceBuf = out
	return out
}

// releases reports whether e is a Lock that would wait (a Mutex's Lock,
// an RWMutex's Lock behind a writer) and transition j only releases its
// object (Unlock; for an RWMutex, the writer's Unlock): e cannot run
// before j, whose goroutine holds the lock, because the scheduler does
// not run a Lock that would block.
func (h *hb) releases(j int32, e event.Event) bool {
	var release event.Op
	switch e.Op {
	case event.OpLock:
		release = event.OpUnlock
	case event.OpWLock:
		release = event.OpWUnlock
	default:
		return false
	}
	t := &h.tr[j]
	if t.global {
		return false
	}
	for _, op := range lockOps {
		if op != release && t.has(event.Event{Op: op, Obj: e.Obj}) {
			return false
		}
	}
	for _, f := range t.fp {
		if f.Global() {
			return false
		}
	}
	return true
}

var lockOps = [...]event.Op{event.OpLock, event.OpUnlock, event.OpTryLock, event.OpRLock, event.OpRUnlock, event.OpTryRLock, event.OpWLock, event.OpWUnlock, event.OpTryWLock}

// initials returns the goroutines that can start v = notdep(j).p: the
// transitions after j that do not happen after it, followed by the next
// step of goroutine p (Abdulla et al., "Optimal dynamic partial order
// reduction", POPL 2014, section 4: the initials I_[E'](v), E' being the
// execution before j). A goroutine is an initial when its first
// transition in v (p's next step, if p has none there) happens after no
// other transition of v (nor after j, for p's step). The transitions of v of one goroutine follow its
// first one in v (what happens after j stays after it), so a transition
// has a predecessor in v exactly when its clock reaches the first
// transition in v of another goroutine.
func (h *hb) initials(j int32, p int32) map[int32]bool {
	tj := &h.tr[j]
	first := map[int32]uint32{} // goroutine -> number of its first transition in v
	init := map[int32]bool{}
	after := func(vc []uint32) bool { // vc reaches a transition of v
		for q, li := range first {
			if int(q) < len(vc) && vc[q] >= li {
				return true
			}
		}
		return false
	}
	for k := j + 1; k < int32(len(h.tr)); k++ {
		t := &h.tr[k]
		if int(tj.g) < len(t.vc) && t.vc[tj.g] >= tj.li {
			continue // happens after j
		}
		if _, ok := first[t.g]; ok {
			continue
		}
		if !after(t.vc) {
			init[t.g] = true
		}
		first[t.g] = t.li
	}
	if _, ok := first[p]; !ok {
		th := &h.ths[p]
		vc := th.vc
		if th.wakeBy >= 0 {
			vc = join(append([]uint32(nil), vc...), h.tr[th.wakeBy].vc)
		}
		if !after(vc) && !(int(tj.g) < len(vc) && vc[tj.g] >= tj.li) {
			init[p] = true
		}
	}
	return init
}

// lastGlobalOther returns the last transition with a Global event of a
// goroutine other than g, or -1.
func (h *hb) lastGlobalOther(g int32) int32 {
	if h.gl1 >= 0 && h.tr[h.gl1].g != g {
		return h.gl1
	}
	return h.gl2
}

// dominates reports whether transition j conflicts with every event of
// another goroutine on obj: it changes obj (and is not a read-lock, which
// commutes with read-locks).
func (h *hb) dominates(j int32, obj int32) bool {
	if t := &h.tr[j]; t.objs != nil {
		return t.objs[obj]&footMod != 0
	}
	for _, f := range h.tr[j].fp {
		if f.Obj == obj && f.Op.Modifies() && f.Op != event.OpRLock && !f.Global() {
			return true
		}
	}
	return false
}

func (h *hb) conflicts(j int32, e event.Event) bool {
	if t := &h.tr[j]; t.objs != nil {
		// event.Conflicts against the summary (j and e are of different
		// goroutines).
		switch {
		case t.global || e.Global():
			return true
		case e.Obj == 0:
			return false
		}
		k := t.objs[e.Obj]
		return k&footMod != 0 || (k&footRLock != 0 && e.Op != event.OpRLock) || (k&footRead != 0 && e.Op.Modifies())
	}
	for _, f := range h.tr[j].fp {
		if event.Conflicts(f, e) {
			return true
		}
	}
	return false
}

// pending records that e is (part of) the next step of e.G and returns the
// transition it races with, or -1.
func (h *hb) pending(e event.Event) int32 {
	if h.off {
		return -1
	}
	h.see(e)
	t := h.thread(e.G)
	if t.pends(e) {
		return -1
	}
	t.pend = append(t.pend, e)
	return h.lastRace(e)
}

// pends reports whether e is among t's pending events.
func (t *hthread) pends(e event.Event) bool {
	for _, p := range t.pend {
		if p == e {
			return true
		}
	}
	return false
}

// pended reports whether ev is a pending step of its goroutine (Pending
// announced it), always true when the tracker is off.
func (h *hb) pended(ev event.Event) bool {
	if h.off {
		return true
	}
	return int(ev.G) < len(h.ths) && h.ths[ev.G].pends(ev)
}

// ran reports whether goroutine g executed an event.
func (h *hb) ran(g int32) bool { return int(g) < len(h.ths) && h.ths[g].n > 0 }

// after returns the transition that Thread choice point d chose, or -1.
func (h *hb) after(d int32) int32 {
	for j := len(h.tr) - 1; j >= 0; j-- {
		if h.tr[j].node == d {
			return int32(j)
		}
	}
	return -1
}

// woke records that the executing transition started or woke g.
func (h *hb) woke(g int32) {
	if h.off || h.cur < 0 {
		return
	}
	t := h.thread(g)
	if _, ok := h.parent[g]; !ok && t.n == 0 {
		h.parent[g] = h.tr[h.cur].g
	}
	t.wakeBy = h.cur
}

// executed records that ev runs, node being the Thread choice point right
// before it (-1 if none). It returns the index of its transition (-1 when
// the tracker is off), whether that transition is new, and where the
// events ev added start in its footprint.
func (h *hb) executed(ev event.Event, node int32) (i int32, fresh bool, from int) {
	if h.off {
		return -1, false, 0
	}
	h.see(ev)
	t := h.thread(ev.G)
	found := t.pends(ev)
	fp := t.pend
	t.pend = nil
	if !found {
		fp = append(fp, ev)
	}
	h.lastFP = fp
	i = int32(len(h.tr)) - 1
	fresh = !(h.merge && h.open && node < 0 && i >= 0 && h.tr[i].g == ev.G)
	if fresh {
		if len(h.tr) >= h.limit {
			h.off = true
			return -1, false, 0
		}
		i = int32(len(h.tr))
		t.n++
		vc := append([]uint32(nil), t.vc...)
		if t.wakeBy >= 0 {
			vc = join(vc, h.tr[t.wakeBy].vc)
			t.wakeBy = -1
		}
		for int(ev.G) >= len(vc) {
			vc = append(vc, 0)
		}
		vc[ev.G] = t.n
		h.tr = append(h.tr, htrans{g: ev.G, li: t.n, vc: vc, node: node})
		t.last = i
	}
	tr := &h.tr[i]
	from = len(tr.fp)
	for _, e := range fp {
		h.add(i, tr, e)
	}
	t.vc = append(t.vc[:0], tr.vc...)
	h.open, h.cur = true, i
	return i, fresh, from
}

// add adds e to the footprint of transition i: it happens after every
// earlier conflicting transition.
func (h *hb) add(i int32, tr *htrans, e event.Event) {
	if h.merge && tr.has(e) {
		return // the same operation on the same object: nothing new
	}
	tr.fp = append(tr.fp, e)
	tr.index(len(tr.fp) - 1)
	after := func(j int32) {
		o := &h.tr[j]
		if int(o.g) >= len(tr.vc) || tr.vc[o.g] < o.li {
			tr.vc = join(tr.vc, o.vc)
		}
	}
	if e.Global() {
		// It conflicts with every earlier transition of the others: the
		// last one of each goroutine covers its earlier ones.
		for q := range h.ths {
			if int32(q) != tr.g {
				tr.vc = join(tr.vc, h.ths[q].vc)
			}
		}
		switch {
		case h.gl1 == i:
		case h.gl1 >= 0 && h.tr[h.gl1].g != tr.g:
			h.gl1, h.gl2 = i, h.gl1
		default:
			h.gl1 = i
		}
	} else {
		// The last global transition of another goroutine covers the
		// earlier ones.
		if j := h.lastGlobalOther(tr.g); j >= 0 {
			after(j)
		}
	}
	if e.Obj != 0 {
		l := h.touching(e)
		for k := len(l) - 1; k >= 0; k-- {
			j := l[k]
			if j >= i {
				continue
			}
			if h.tr[j].g == tr.g {
				if h.dominates(j, e.Obj) {
					break // program order covers what came before j
				}
				continue
			}
			if h.conflicts(j, e) {
				after(j)
				if h.dominates(j, e.Obj) {
					break // what came before j on the object happens before it
				}
			}
		}
		if l := h.byObj[e.Obj]; len(l) == 0 || l[len(l)-1] != i {
			h.byObj[e.Obj] = append(l, i)
		}
		if l := h.byMod[e.Obj]; e.Op.Modifies() && (len(l) == 0 || l[len(l)-1] != i) {
			h.byMod[e.Obj] = append(l, i)
		}
	}
}

// touching returns the transitions on e's object that e may conflict
// with, oldest first: those that modify it when e does not (the others
// would be skipped one by one, and a goroutine that reads a word in a
// loop makes them many), every one otherwise.
func (h *hb) touching(e event.Event) []int32 {
	if e.Op.Modifies() {
		return h.byObj[e.Obj]
	}
	return h.byMod[e.Obj]
}

// cut closes the executing transition: the next event starts a new one.
func (h *hb) cut() { h.open = false }

func join(a, b []uint32) []uint32 {
	for len(a) < len(b) {
		a = append(a, 0)
	}
	for k, v := range b {
		if v > a[k] {
			a[k] = v
		}
	}
	return a
}

// traceHash hashes the happens-before order of the execution, so that two
// executions hash alike exactly when they are the same Mazurkiewicz trace
// (up to hash collisions). Goroutines are named by their creation path
// (the k-th goroutine started by the k'-th...), objects not at all: each
// transition is its operations and sites and the clock of its causal past.
func (h *hb) traceHash() uint64 {
	names := map[int32]uint64{0: 1}
	kids := map[int32]uint64{}
	var name func(g int32) uint64
	name = func(g int32) uint64 {
		if n, ok := names[g]; ok {
			return n
		}
		p, ok := h.parent[g]
		if !ok {
			names[g] = 2 // the main goroutine
			return 2
		}
		pn := name(p)
		kids[p]++
		n := strategy.Mix64(pn*31 + kids[p])
		names[g] = n
		return n
	}
	// Children are numbered in the order their parent started them, which
	// program order fixes.
	for g := int32(1); int(g) < len(h.ths); g++ {
		name(g)
	}
	sums := make([]uint64, 0, len(h.tr))
	for _, t := range h.tr {
		x := strategy.Mix64(name(t.g)*0x9e3779b97f4a7c15 + uint64(t.li))
		for _, e := range t.fp {
			x = strategy.Mix64(x ^ uint64(e.Op)<<32 ^ uint64(e.Site))
		}
		for g, v := range t.vc {
			if v > 0 {
				x += strategy.Mix64(name(int32(g)) ^ uint64(v)<<1)
			}
		}
		sums = append(sums, x)
	}
	sort.Slice(sums, func(a, b int) bool { return sums[a] < sums[b] })
	var r uint64 = 14695981039346656037
	for _, s := range sums {
		r = strategy.Mix64(r ^ s)
	}
	return r
}
