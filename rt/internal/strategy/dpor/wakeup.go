package dpor

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Wakeup trees: optimal DPOR (Abdulla, Aronis, Jonsson and Sagonas,
// "Optimal dynamic partial order reduction", POPL 2014, section 6,
// Algorithm 2). Where source sets (section 4) put one initial of
// v = notdep(j).p into the backtrack set of the choice point before j and
// let the execution that starts with it go where it will, a wakeup tree
// keeps v itself: the execution that explores it follows v to its end,
// and so reverses the race, and a later race whose sequence an explored
// or scheduled one already covers adds nothing. Each choice point's
// unexplored options carry their subtree (dnode.sub), explored in the
// order they were inserted (dnode.order).
//
// A step of a sequence is one operation (glued says which events are
// part of one): transitions are merged events, and another execution may
// cut them elsewhere (a Lock that waits after its goroutine's start splits
// what was one transition), so a sequence of transitions would not name
// the same events twice; the operations of a goroutine do, one by one.
// Races are still found between transitions,
// as source sets find them: v holds the events of the transitions after
// j that do not happen after it, and a transition that happens before
// another orders all its events before the other's (conservative: fewer
// weak initials, more insertions).
//
// Following a sequence, the step's goroutine is chosen at each choice
// point; where the program offers no choice, the next step runs when it
// is the only way on. Where the program does not let the sequence be
// followed (its goroutine is not an option, another one runs where no
// choice was offered), the execution diverged from the tree, and every
// option of the next choice point is explored, as source sets do when no
// initial can run (Diverged counts these).

// wnode is a step of a wakeup tree and the steps that may follow it.
type wnode struct {
	g    int32
	fp   []event.Event // the event and the pending events it completed
	sel  []int32       // the Select choices made right before it
	kids []*wnode
	// known says that fp is the step's footprint (a backtrack option
	// that never ran has none: it is independent of nothing).
	known bool
}

// logged is an event of the execution, for the sequences of wakeup trees.
type logged struct {
	g   int32
	fp  []event.Event
	sel []int32
}

// vstep is a step of a sequence v = notdep(j).p being inserted: an event
// of transition tr.
type vstep struct {
	wnode
	tr int32
}

// maxWakeup bounds the events of a sequence kept in a wakeup tree,
// maxScan the transitions after j looked through to find them (a race
// with a transition far back in a long execution would cost a scan of
// everything since), and maxLog the events of an execution logged for
// them; a race past these bounds is handled as source sets do.
const (
	maxWakeup = 1024
	maxScan   = 4096
	maxLog    = 1 << 20
)

// wseq is a sequence being inserted: v with the steps matched so far
// removed.
type wseq struct {
	h          *hb
	v          []vstep
	beforeLast []bool // transition of v[k] happens before the last step
	rm         []bool
	// trs, once detached from the execution (h nil), holds what before
	// needs of the transitions of v.
	trs map[int32]trClock
}

// trClock is a transition's goroutine, number and clock.
type trClock struct {
	g  int32
	li uint32
	vc []uint32
}

// detach returns w with what it needs of the execution's transitions,
// to be inserted in a wakeup tree after the execution.
func (w *wseq) detach() *wseq {
	d := &wseq{v: w.v, beforeLast: w.beforeLast, rm: w.rm, trs: map[int32]trClock{}}
	for _, st := range w.v {
		if _, ok := d.trs[st.tr]; ok || st.tr < 0 {
			continue
		}
		t := &w.h.tr[st.tr]
		d.trs[st.tr] = trClock{g: t.g, li: t.li, vc: append([]uint32(nil), t.vc...)}
	}
	return d
}

// notdep returns v = notdep(j).p: the events of the transitions after j
// that do not happen after it, then p's next step (its pending events).
// It returns nil past the bounds (maxWakeup, maxScan, maxLog).
func (s *DPOR) notdep(j int32, p int32) *wseq {
	h := s.h
	if len(s.evlog) >= maxLog || len(h.tr)-int(j) > maxScan {
		return nil
	}
	tj := &h.tr[j]
	w := &wseq{h: h}
	th := &h.ths[p]
	vc := append([]uint32(nil), th.vc...)
	if th.wakeBy >= 0 {
		vc = join(vc, h.tr[th.wakeBy].vc)
	}
	pend := append([]event.Event(nil), th.pend...)
	var trs []int32
	for k := j + 1; k < int32(len(h.tr)); k++ {
		t := &h.tr[k]
		if int(tj.g) < len(t.vc) && t.vc[tj.g] >= tj.li {
			continue // happens after j
		}
		trs = append(trs, k)
		end := int32(len(s.evlog))
		if int(k+1) < len(s.trEv) {
			end = s.trEv[k+1]
		}
		if len(w.v)+int(end-s.trEv[k]) >= maxWakeup {
			return nil
		}
		for _, e := range s.evlog[s.trEv[k]:end] {
			w.v = append(w.v, vstep{wnode: wnode{g: e.g, fp: e.fp, sel: e.sel, known: true}, tr: k})
		}
	}
	// Which transitions happen before p's step: its own, those its
	// clock reaches, those it conflicts with, and what happens before
	// those.
	bl := map[int32]bool{}
	for i := len(trs) - 1; i >= 0; i-- {
		k := trs[i]
		t := &h.tr[k]
		if t.g == p || (int(t.g) < len(vc) && vc[t.g] >= t.li) || conflictsList(t.fp, pend) {
			bl[k] = true
			continue
		}
		for _, m := range trs[i+1:] {
			if bl[m] && h.trBefore(k, m) {
				bl[k] = true
				break
			}
		}
	}
	w.beforeLast = make([]bool, len(w.v))
	for i := range w.v {
		w.beforeLast[i] = bl[w.v[i].tr]
	}
	w.v = append(w.v, vstep{wnode: wnode{g: p, fp: pend, known: true}, tr: -1})
	w.beforeLast = append(w.beforeLast, false)
	w.rm = make([]bool, len(w.v))
	return w
}

// trBefore reports whether transition a happens before transition b.
func (h *hb) trBefore(a, b int32) bool {
	ta, tb := &h.tr[a], &h.tr[b]
	return int(ta.g) < len(tb.vc) && tb.vc[ta.g] >= ta.li
}

func conflictsList(a, b []event.Event) bool {
	for _, x := range a {
		if conflictsAny(b, x) {
			return true
		}
	}
	return false
}

// before reports whether step i of w happens before step k (i < k).
func (w *wseq) before(i, k int) bool {
	a, b := &w.v[i], &w.v[k]
	switch {
	case b.tr < 0:
		return w.beforeLast[i]
	case a.tr == b.tr:
		return true
	}
	if w.h == nil {
		ta, tb := w.trs[a.tr], w.trs[b.tr]
		return int(ta.g) < len(tb.vc) && tb.vc[ta.g] >= ta.li
	}
	return w.h.trBefore(a.tr, b.tr)
}

// weakInitial reports whether goroutine g, whose next step is fp (when
// known), is a weak initial of w (section 6): its first step in w
// happens after no other step of w, or it has none in w and its step is
// independent of every step of w. It returns the index of g's step in w,
// or -1. Objects numbered after maxObj (below minObj) may be others in
// other executions: fresh ones conflict with each other.
func (w *wseq) weakInitial(g int32, fp []event.Event, known bool, maxObj, minObj int32) (int, bool) {
	for i := range w.v {
		if w.rm[i] || w.v[i].g != g {
			continue
		}
		for k := 0; k < i; k++ {
			if !w.rm[k] && w.before(k, i) {
				return i, false
			}
		}
		return i, true
	}
	if !known {
		return -1, false
	}
	sl := sleeper{g: g, fp: fp, maxObj: maxObj, minObj: minObj}
	for i := range w.v {
		if !w.rm[i] && sl.conflicts(w.v[i].fp) {
			return -1, false
		}
	}
	return -1, true
}

// rest returns the steps of w not matched, as a chain of new nodes, the
// first being an initial of w that ok accepts (w is equivalent to it
// followed by the others in order), or nil if there is none.
func (w *wseq) rest(ok func(g int32) bool) *wnode {
	first := -1
	for i := range w.v {
		if w.rm[i] {
			continue
		}
		initial := true
		for k := 0; k < i && initial; k++ {
			initial = w.rm[k] || !w.before(k, i)
		}
		if initial && ok(w.v[i].g) {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	root := w.v[first].wnode
	cur := &root
	for i := range w.v {
		if w.rm[i] || i == first {
			continue
		}
		nx := w.v[i].wnode
		cur.kids = []*wnode{&nx}
		cur = &nx
	}
	return &root
}

// insert returns kids with w inserted below them (section 6,
// insert[E](w, wut)): it descends into the first child that is a weak
// initial of what is left of w and stops at a leaf, whose exploration
// covers w; where no child is one, the rest of w becomes the last child.
func (w *wseq) insert(kids []*wnode, maxObj, minObj int32) []*wnode {
	for _, c := range kids {
		i, ok := w.weakInitial(c.g, c.fp, c.known, maxObj, minObj)
		if !ok {
			continue
		}
		if i >= 0 {
			w.rm[i] = true
		}
		if len(c.kids) > 0 {
			c.kids = w.insert(c.kids, maxObj, minObj)
		}
		return kids
	}
	if r := w.rest(func(int32) bool { return true }); r != nil {
		return append(kids, r)
	}
	return kids
}

// steer makes the new Thread choice point n follow the wakeup sequence
// being followed: it returns the option to choose, or -1 for a free
// choice (after the sequence's last step, or when it diverged). A point
// after a completed step gets the step's children as its subtrees.
func (s *DPOR) steer(n *dnode, p *strategy.Point) int {
	if s.widen {
		s.widen = false
		n.markAll()
		return -1
	}
	c := s.gcur
	if c == nil {
		return -1
	}
	if s.grem {
		if k := p.OptionOf(c.g); k >= 0 {
			return k
		}
		s.diverge(n)
		return -1
	}
	if len(c.kids) == 0 {
		s.gcur = nil
		return -1
	}
	n.sub = make([]*wnode, len(p.Options))
	first := -1
	for _, kid := range c.kids {
		k := p.OptionOf(kid.g)
		if k < 0 || n.sub[k] != nil {
			s.Diverged++
			n.markAll()
			continue
		}
		n.sub[k] = kid
		n.mark(k)
		if first < 0 {
			first = k
		}
	}
	if first < 0 {
		s.gcur = nil
		return -1
	}
	s.gcur, s.grem = n.sub[first], true
	return first
}

// steerSelect returns the choice the followed sequence made at a Select
// point of goroutine g, or -1.
func (s *DPOR) steerSelect(g int32, options int) int {
	c := s.gcur
	if c == nil {
		return -1
	}
	if !s.grem {
		var next *wnode
		for _, kid := range c.kids {
			if kid.g == g {
				next = kid
			}
		}
		c = next
	}
	if c == nil || c.g != g || s.gsel >= len(c.sel) {
		return -1
	}
	k := int(c.sel[s.gsel])
	s.gsel++
	if k >= options {
		s.Diverged++
		s.gcur = nil
		return -1
	}
	return k
}

// diverge abandons the sequence being followed: the program does not let
// it run on from n, every option of which is explored instead.
func (s *DPOR) diverge(n *dnode) {
	s.Diverged++
	s.gcur = nil
	n.markAll()
}

// track follows an event of goroutine g that is a step: the step being
// followed, or, where no choice was offered, the next one when g runs it.
func (s *DPOR) track(g int32) {
	c := s.gcur
	s.gsel = 0
	if s.grem {
		if g == c.g {
			s.grem = false
			return
		}
	} else {
		if len(c.kids) == 0 {
			s.gcur = nil // the sequence ran to its end
			return
		}
		for _, kid := range c.kids {
			if kid.g == g {
				if len(c.kids) > 1 {
					// The others could not run here.
					s.Diverged++
					s.widen = true
				}
				s.gcur = kid
				return
			}
		}
	}
	s.Diverged++
	s.gcur = nil
	s.widen = true
}

// insert inserts w = notdep(j).p into the wakeup tree of the choice
// point d before j (Algorithm 2, lines 4-6), unless a goroutine asleep
// there, or an option explored from it other than the one the execution
// took, is a weak initial of w (its explorations cover w).
func (s *DPOR) insert(d int32, w *wseq) {
	n := &s.nodes[d]
	for _, sl := range n.sleep {
		if _, ok := w.weakInitial(sl.g, sl.fp, true, sl.maxObj, sl.minObj); ok {
			return
		}
	}
	for k, done := range n.done {
		if done && k != n.chosen {
			if _, ok := w.weakInitial(n.gs[k], n.fps[k], n.fps[k] != nil, n.maxObj, n.minObj); ok {
				return
			}
		}
	}
	for _, k := range n.order {
		if n.done[k] {
			continue
		}
		if n.insertBelow(k, w) {
			return
		}
	}
	if k, r := n.restOption(w); r != nil {
		n.plant(k, r)
	}
}

// insertBelow inserts w below option k of n, not explored yet, when the
// option's sequence (or the option alone, a leaf) is a weak initial of
// w; it reports whether it did, and the insertion is over.
func (n *dnode) insertBelow(k int, w *wseq) bool {
	var c *wnode
	if n.sub != nil {
		c = n.sub[k]
	}
	if c == nil {
		// An option to explore with no sequence: a leaf.
		_, ok := w.weakInitial(n.gs[k], nil, false, n.maxObj, n.minObj)
		return ok
	}
	i, ok := w.weakInitial(c.g, c.fp, c.known, n.maxObj, n.minObj)
	if !ok {
		return false
	}
	if i >= 0 {
		w.rm[i] = true
	}
	if len(c.kids) > 0 {
		c.kids = w.insert(c.kids, n.maxObj, n.minObj)
	}
	return true
}

// restOption returns what is left of w as a new sequence from n, and the
// option of n it starts with. With none (no initial of w can run at n: a
// goroutine blocked there), it marks every option of n and returns nil.
func (n *dnode) restOption(w *wseq) (int, *wnode) {
	r := w.rest(func(g int32) bool {
		for _, o := range n.gs {
			if o == g {
				return true
			}
		}
		return false
	})
	if r != nil {
		for k, o := range n.gs {
			if o == r.g {
				return k, r
			}
		}
	}
	n.markAll()
	return -1, nil
}

// plant makes r the sequence of option k of n and marks it to explore.
func (n *dnode) plant(k int, r *wnode) {
	if n.sub == nil {
		n.sub = make([]*wnode, len(n.gs))
	}
	n.sub[k] = r
	n.mark(k)
}

// A step is an operation. A goroutine's start and the resumption of a
// blocked one are not steps: the scheduler runs the goroutine's next
// operation right after them when it can, so a sequence in which another
// goroutine's step came between could not be followed. An exit is part
// of the operation right before it, which nothing can come between.
// log and track read the events alike: glued reports whether ev is part
// of a step already begun (or none).
func (s *DPOR) glued(ev event.Event) bool {
	switch ev.Op {
	case event.OpStart, event.OpResume:
		s.lastOp = -1
		return true
	case event.OpExit:
		if s.lastOp == ev.G {
			return true
		}
	}
	s.lastOp = ev.G
	return false
}

// log records event ev, just added to transition i.
func (s *DPOR) log(i int32, ev event.Event, glued bool) {
	sel := s.selBuf
	s.selBuf = nil
	if len(s.evlog) >= maxLog {
		return
	}
	for int(i) >= len(s.trEv) {
		s.trEv = append(s.trEv, int32(len(s.evlog)))
	}
	if len(s.evlog)-int(s.trEv[i]) >= maxWakeup {
		return // too long for a sequence: notdep gives up on it
	}
	if glued {
		if ev.Op == event.OpExit {
			l := &s.evlog[len(s.evlog)-1]
			l.fp = append(l.fp[:len(l.fp):len(l.fp)], s.h.lastFP...)
		}
		return
	}
	s.evlog = append(s.evlog, logged{g: ev.G, fp: s.h.lastFP, sel: sel})
}
