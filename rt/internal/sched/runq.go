package sched

import (
	"fmt"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// The enabled set, kept incrementally, so that a scheduling point costs
// the same whatever the number of goroutines.
//
// A ready goroutine (state gReady) sits in exactly one gset: the run queue
// it.runq, or the group of the object its pending operation waits for. The
// operations whose enabledness depends on an object (Lock, the writer's
// Lock of an RWMutex, Once while another runs the function: gated
// operations) put their goroutine in the object's group when the object
// is closed (locked) at the time it arrives, and in the run queue when it
// is open; a goroutine put in the run queue that way is also noted on the
// object, and moved to its group when the object closes. A group whose
// object is open is listed in it.open. The enabled goroutines are the run
// queue followed by the open groups: locking and unlocking a mutex many
// goroutines wait for opens and closes one group, instead of enabling and
// disabling each waiter, and every goroutine moves from the run queue to
// a group at most once per operation it waits to perform.
//
// Each gset keeps its members in an array (the i-th enabled goroutine in
// O(1) plus one step per open group) and, by the step at which they last
// ran, their keys (the fairness rule's longest-passed-over goroutine).
// Both orders depend only on the iteration's history, so replay and DFS
// see the same options in the same order again.
//
// The keys are kept lazily, as entries that hold each member's key as it
// was when the member joined the set or last ran: a goroutine that runs
// adds an entry, and one that leaves the set leaves its entry behind. An
// entry whose goroutine has left the set or run since is stale, and is
// dropped when it is the least (top); the entries are rebuilt from the
// members when they are twice as many (plus 8). Most keys arrive in
// order (a goroutine that runs gets the greatest key; the waiters of a
// lock join its group in the order in which they ran): those go to the
// end of a queue, the others into a heap, and the least entry is the
// lesser of the queue's first and the heap's top. A goroutine that runs
// or is passed the lock then costs O(1), and no comparison reads another
// goroutine's descriptor: with thousands of goroutines those are cold in
// the cache.

// gset is a set of ready goroutines.
type gset struct {
	items []*G // in an order the history determines (swap removal)
	// The members' keys, with stale entries: a queue in key order (a
	// ring of qn entries from q[qh], len(q) a power of two), and a 4-ary
	// min-heap.
	q      []hent
	qh, qn int
	heap   []hent
	it     *Iteration
	obj    *object  // the object of a group; nil for the run queue
	op     event.Op // the gated operation of a group
	open   int      // index in it.open plus one; 0: not listed
}

// hent is an entry of a gset's keys: a goroutine's key, (lastRun, ID),
// when the entry was added. It holds no pointer, so that moving entries
// needs no write barrier, and four fit in a cache line: the children of
// an entry in the heap.
type hent struct {
	run int
	id  int32
}

func hentLess(a, b *hent) bool {
	return a.run < b.run || a.run == b.run && a.id < b.id
}

// member returns the goroutine of entry e.
func (s *gset) member(e *hent) *G { return s.it.gs[e.id-1] }

// stale reports whether e's goroutine has left s or run since e was
// added.
func (s *gset) stale(e *hent) bool {
	g := s.member(e)
	return g.set != s || g.lastRun != e.run
}

func (s *gset) add(g *G) {
	if s == &s.it.runq {
		s.it.fairUntil = 0 // g may have waited longer than every member
	}
	g.set, g.idx = s, len(s.items)
	s.items = append(s.items, g)
	s.push(g)
}

func (s *gset) remove(g *G) {
	last := len(s.items) - 1
	if m := s.items[last]; m != g {
		s.items[g.idx], m.idx = m, g.idx
	}
	s.items[last] = nil
	s.items = s.items[:last]
	g.set = nil // its entries are stale now
}

// push adds g's key, g a member.
func (s *gset) push(g *G) {
	if s.qn+len(s.heap) >= 2*len(s.items)+8 {
		s.rebuild()
		return // g is among the members
	}
	e := hent{g.lastRun, g.ID}
	if s.qn == 0 || !hentLess(&e, s.qAt(s.qn-1)) {
		if s.qn == len(s.q) {
			s.growQ()
		}
		s.q[(s.qh+s.qn)&(len(s.q)-1)] = e
		s.qn++
		return
	}
	s.heap = append(s.heap, e)
	h := s.heap
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 4
		if !hentLess(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// qAt returns the queue's i-th entry.
func (s *gset) qAt(i int) *hent { return &s.q[(s.qh+i)&(len(s.q)-1)] }

// growQ doubles the queue's ring.
func (s *gset) growQ() {
	q := make([]hent, max(8, 2*len(s.q)))
	for i := 0; i < s.qn; i++ {
		q[i] = *s.qAt(i)
	}
	s.q, s.qh = q, 0
}

// popQ drops the queue's first entry.
func (s *gset) popQ() {
	s.qh = (s.qh + 1) & (len(s.q) - 1)
	s.qn--
}

// top returns the member that ran least recently (the lowest id among
// equals), or nil when there is none.
func (s *gset) top() *G {
	if s.qn > 0 && len(s.heap) == 0 {
		if e := &s.q[s.qh]; !s.stale(e) {
			return s.member(e)
		}
	}
	return s.dropStale()
}

// dropStale drops the stale entries that are the least and returns the
// member of the least entry then, or nil.
func (s *gset) dropStale() *G {
	for {
		var e *hent
		inQ := s.qn > 0
		if inQ {
			e = &s.q[s.qh]
		}
		if len(s.heap) > 0 && (e == nil || hentLess(&s.heap[0], e)) {
			e, inQ = &s.heap[0], false
		}
		switch {
		case e == nil:
			return nil
		case !s.stale(e):
			return s.member(e)
		case inQ:
			s.popQ()
		default:
			last := len(s.heap) - 1
			s.heap[0] = s.heap[last]
			s.heap = s.heap[:last]
			s.down(0)
		}
	}
}

// rebuild makes the entries anew from the members' keys.
func (s *gset) rebuild() {
	s.qh, s.qn = 0, 0
	s.heap = s.heap[:0]
	for _, g := range s.items {
		s.heap = append(s.heap, hent{g.lastRun, g.ID})
	}
	for i := (len(s.heap) - 2) / 4; i >= 0; i-- {
		s.down(i)
	}
}

func (s *gset) down(i int) {
	h := s.heap
	n := len(h)
	for {
		c := 4*i + 1
		if c >= n {
			return
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if hentLess(&h[j], &h[m]) {
				m = j
			}
		}
		if !hentLess(&h[m], &h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// gated reports whether op's enabledness depends on its object.
func gated(op event.Op) bool {
	return op == event.OpLock || op == event.OpWLock || op == event.OpOnce
}

// gateOpen reports whether gated operation op can perform on o now.
func gateOpen(op event.Op, o *object) bool {
	switch op {
	case event.OpLock:
		return !o.locked
	case event.OpWLock:
		return !o.wHeld
	case event.OpOnce:
		return o.once != onceRunning
	}
	return true
}

// place puts g in the set its state and pending operation call for. It
// runs whenever either changes.
func (it *Iteration) place(g *G) {
	var s *gset
	if g.state == gReady {
		s = &it.runq
		if o := g.pendObj; o != nil && gated(g.pending.Op) {
			if gateOpen(g.pending.Op, o) {
				if o.once != onceDone { // a done Once never closes again
					o.arrivals = it.appendG(o.arrivals, g)
				}
			} else {
				s = it.group(o, g.pending.Op)
			}
		}
	}
	if g.set == s {
		return
	}
	if g.set != nil {
		it.leaveSet(g)
	}
	if s != nil {
		if it.growing(len(s.items), cap(s.items)) || it.growing(s.qn, len(s.q)) || it.growing(len(s.heap), cap(s.heap)) {
			it.toolBegin()
			defer it.toolEnd()
		}
		s.add(g)
	}
}

// leaveSet takes g out of its set.
func (it *Iteration) leaveSet(g *G) {
	s := g.set
	s.remove(g)
	if s.open != 0 && len(s.items) == 0 {
		it.unlist(s)
	}
}

// group returns o's group of goroutines waiting for gated operation op.
func (it *Iteration) group(o *object, op event.Op) *gset {
	if o.group == nil {
		it.toolBegin()
		o.group = &gset{it: it, obj: o, op: op}
		it.toolEnd()
	}
	return o.group
}

// appendG appends g to s, measured as the tool's own allocation.
func (it *Iteration) appendG(s []*G, g *G) []*G {
	if it.growing(len(s), cap(s)) {
		it.toolBegin()
		defer it.toolEnd()
	}
	return append(s, g)
}

// smallGroup is the size up to which an opening group's members go back
// to the run queue instead of listing the group, so that the open groups
// are few.
const smallGroup = 4

// gateChanged follows a change of o's lock state made by g (running): a
// group opens or closes, and goroutines that arrived while o was open
// move to its group when it closes.
func (it *Iteration) gateChanged(g *G, o *object) {
	s := o.group
	if len(o.arrivals) > 0 {
		closed := false
		for _, a := range o.arrivals {
			if a.set != &it.runq || a.pendObj != o || !gated(a.pending.Op) || gateOpen(a.pending.Op, a.pendObj) {
				continue // gone, or still enabled
			}
			closed = true
			if a == g {
				continue // performing the operation: placed at its next point
			}
			s = it.group(o, a.pending.Op)
			it.leaveSet(a)
			s.add(a)
		}
		if closed {
			clear(o.arrivals)
			o.arrivals = o.arrivals[:0]
		}
	}
	if s == nil || len(s.items) == 0 {
		return
	}
	switch open := gateOpen(s.op, o); {
	case open && s.open == 0:
		if len(s.items) <= smallGroup {
			for len(s.items) > 0 {
				a := s.items[len(s.items)-1]
				s.remove(a)
				it.runq.add(a)
				o.arrivals = it.appendG(o.arrivals, a)
			}
			return
		}
		it.open = append(it.open, s)
		s.open = len(it.open)
	case !open && s.open != 0:
		it.unlist(s)
	}
}

// unlist removes s from the open groups.
func (it *Iteration) unlist(s *gset) {
	i := s.open - 1
	last := len(it.open) - 1
	if i != last {
		m := it.open[last]
		it.open[i], m.open = m, i+1
	}
	it.open[last] = nil
	it.open = it.open[:last]
	s.open = 0
}

// enabledCount is the number of enabled goroutines.
func (it *Iteration) enabledCount() int {
	n := len(it.runq.items)
	for _, s := range it.open {
		n += len(s.items)
	}
	return n
}

// enabledAt returns the i-th enabled goroutine.
func (it *Iteration) enabledAt(i int) *G {
	if i < len(it.runq.items) {
		return it.runq.items[i]
	}
	i -= len(it.runq.items)
	for _, s := range it.open {
		if i < len(s.items) {
			return s.items[i]
		}
		i -= len(s.items)
	}
	panic(fmt.Sprintf("sched: enabled goroutine %d of %d", i, it.enabledCount()))
}

// enabledIndex returns g's index among the enabled goroutines, or -1.
func (it *Iteration) enabledIndex(g *G) int {
	switch {
	case g.set == nil:
		return -1
	case g.set == &it.runq:
		return g.idx
	case g.set.open == 0:
		return -1
	}
	off := len(it.runq.items)
	for _, s := range it.open {
		if s == g.set {
			return off + g.idx
		}
		off += len(s.items)
	}
	return -1
}

// longestPassedOver returns the enabled goroutine that ran least recently
// (the lowest id among equals), or nil.
func (it *Iteration) longestPassedOver() *G {
	best := it.runq.top()
	for _, s := range it.open {
		if g := s.top(); best == nil || g.lastRun < best.lastRun || g.lastRun == best.lastRun && g.ID < best.ID {
			best = g
		}
	}
	return best
}

// pollFailed records that g polled at site and found nothing (a select that
// took its default, a failed TryLock). A poll does not yield natively:
// the goroutine goes on, which a program may rely on right after a
// one-off poll. A poll that repeats (at one of the sites of g's last two
// failed polls) is a spin loop waiting for others: g yields, so that
// systematic searches see the others run and report no livelock (fair).
func (it *Iteration) pollFailed(g *G, site uint32) {
	at := site + 1 // 0: no poll yet
	if g.polls[0] == at || g.polls[1] == at {
		it.yielded(g)
		if y, ok := it.obs.(strategy.Yielder); ok {
			y.Yielded(g.ID, site)
		}
		return
	}
	g.polls[0], g.polls[1] = at, g.polls[0]
	g.polledAt = it.switches + 1 // it goes on, but comes after the others in a listed choice (fair)
	it.polledSw = it.switches + 1
}

// ran records that g was chosen to run at the current step: its new key,
// the greatest, goes to the end of its set's queue; when its entry is
// there already (it ran last), the entry takes the new key in place, and
// when it is the queue's first (it was the longest passed over), it
// leaves the queue's head as its new key joins.
func (it *Iteration) ran(g *G) {
	s := g.set
	old := g.lastRun
	g.lastRun = it.steps
	if s == nil {
		return
	}
	if s.qn > 0 {
		if e := s.qAt(s.qn - 1); e.id == g.ID && e.run == old {
			e.run = it.steps
			return
		}
		if e := &s.q[s.qh]; e.id == g.ID && e.run == old {
			s.popQ() // stale now
		}
	}
	if it.growing(s.qn, len(s.q)) || it.growing(len(s.heap), cap(s.heap)) {
		it.toolBegin()
		s.push(g)
		it.toolEnd()
		return
	}
	s.push(g)
}

// optionSet is the options of a thread choice point as an indexed
// strategy sees them: the enabled goroutines, less the ones the fairness
// rule passes over, then the timer if it may fire.
type optionSet struct {
	it    *Iteration
	only  *G     // the one goroutine option (a starved goroutine), if set
	n     int    // goroutine options
	skip  [4]int // enabled indexes passed over (yielders), ascending
	nskip int
	timer bool
	tev   event.Event
}

// Len implements strategy.OptionSet.
func (v *optionSet) Len() int {
	if v.timer {
		return v.n + 1
	}
	return v.n
}

// At implements strategy.OptionSet.
func (v *optionSet) At(i int) strategy.Option {
	if i == v.n {
		return strategy.Option{G: 0, Ev: v.tev}
	}
	g := v.only
	switch {
	case g != nil:
	case v.nskip == 0 && i < len(v.it.runq.items):
		g = v.it.runq.items[i]
	default:
		for k := 0; k < v.nskip; k++ {
			if v.skip[k] <= i {
				i++
			}
		}
		g = v.it.enabledAt(i)
	}
	return strategy.Option{G: g.ID, Ev: g.pending}
}

// IndexOf implements strategy.OptionSet.
func (v *optionSet) IndexOf(id int32) int {
	if id == 0 {
		if v.timer {
			return v.n
		}
		return -1
	}
	if id < 0 || int(id) > len(v.it.gs) {
		return -1
	}
	g := v.it.gs[id-1]
	if v.only == nil && v.nskip == 0 && g.set == &v.it.runq {
		return g.idx
	}
	if v.only != nil {
		if g == v.only {
			return 0
		}
		return -1
	}
	i := v.it.enabledIndex(g)
	if i < 0 {
		return -1
	}
	d := 0
	for k := 0; k < v.nskip; k++ {
		switch {
		case v.skip[k] == i:
			return -1
		case v.skip[k] < i:
			d++
		}
	}
	return i - d
}

// collectSet sets it.pt to the options of a thread choice point as a set
// (for an indexed strategy), applying the fairness rule (fair) without
// listing the enabled goroutines.
func (it *Iteration) collectSet() {
	v := &it.view // v.it is it; v.tev is read only with v.timer, skip up to nskip
	v.only, v.n, v.nskip, v.timer = nil, 0, 0, false
	it.pt.Options, it.pt.Set = nil, v
	var t *timer
	if len(it.timers.plain) > 0 || len(it.timers.chans) > 0 || verifyRunq {
		t = it.nextTimer()
	}
	if t != nil && (t.when <= it.clock || it.quiet() > quietFire) {
		v.timer, v.tev = true, event.Event{Op: event.OpTimerFire, Obj: t.obj}
		return
	}
	v.n = len(it.runq.items)
	if len(it.open) > 0 {
		v.n = it.enabledCount()
	}
	if t != nil && (v.n == 0 || it.mayFireEarly(t)) {
		v.timer, v.tev = true, event.Event{Op: event.OpTimerFire, Obj: t.obj}
	}
	if v.Len() <= 1 || v.n == 0 {
		return
	}
	var g *G // the longest passed over (fair)
	if len(it.open) == 0 {
		g = it.runq.top()
	} else {
		g = it.longestPassedOver()
	}
	if it.steps-g.lastRun > fairBound {
		v.only, v.n, v.timer = g, 1, false
		return
	}
	// A yielder defers to other goroutines, never to a timer.
	if it.yieldSw != it.switches {
		return
	}
	for _, y := range it.yielders {
		if i := it.enabledIndex(y); i >= 0 && v.nskip < len(v.skip) {
			v.skip[v.nskip] = i
			v.nskip++
		}
	}
	if v.nskip == 0 || v.nskip == v.n {
		v.nskip = 0
		return
	}
	for i := 1; i < v.nskip; i++ {
		for j := i; j > 0 && v.skip[j] < v.skip[j-1]; j-- {
			v.skip[j], v.skip[j-1] = v.skip[j-1], v.skip[j]
		}
	}
	v.n -= v.nskip
}

// verifyRunq makes every thread choice point check the incremental
// enabled set against a scan of every goroutine (tests turn it on).
var verifyRunq bool

// VerifyRunq turns the check of the incremental enabled set against a
// scan of every goroutine on or off (for tests of the packages above).
func VerifyRunq(on bool) { verifyRunq = on }

// checkSet panics if the options of the set differ from those the scan
// gives (it.opts, as collect and fair compute them).
func (it *Iteration) checkSet() {
	v := &it.view
	if v.Len() != len(it.opts) {
		panic(fmt.Sprintf("sched: enabled set has %d options, the scan %d (%v)", v.Len(), len(it.opts), it.opts))
	}
	for _, o := range it.opts {
		i := v.IndexOf(o.G)
		if i < 0 || v.At(i).G != o.G || v.At(i).Ev != o.Ev {
			panic(fmt.Sprintf("sched: option %d of the scan (%v) is not in the enabled set", o.G, it.opts))
		}
	}
}
