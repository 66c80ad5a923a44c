package sched

import (
	"sort"

	"interleave.dev/rt/internal/event"
)

// pendingEvents returns the operation every live goroutine is about to
// perform, or is blocked in.
func (it *Iteration) pendingEvents() []event.Event {
	var out []event.Event
	for _, g := range it.live {
		switch {
		case g.state == gDone || g.state == gOut:
		case g.state == gBlocked:
			ev := event.Event{G: g.ID, Op: g.blockOp, Site: g.blockSite}
			if g.blockObj != nil {
				ev.Obj = g.blockObj.id
			}
			out = append(out, ev)
		default:
			out = append(out, g.pending)
		}
	}
	return out
}

// SigRef is one event of a finding's bug signature: an event of the trace
// (Index, counted from the start of the iteration), or, with Index -1, the
// operation its goroutine was blocked in when the bug showed.
type SigRef struct {
	Index int
	Ev    event.Event
}

// maxSig is the most events of a signature (Lu et al.: concurrency bugs
// rarely need more than four events in a specific order).
const maxSig = 4

// Signature picks the short sequence of events that triggered the bug
// (RegressionMaple's bug signature, Tsui, Wu, Chan, section 2.2), in the
// order they happened, pending events last:
//
//   - a data race: the accesses of an atomicity violation before it (see
//     below) if there is one, else the two racing accesses;
//   - a deadlock or leak: for up to two blocked goroutines, the operation
//     each is blocked in and the last operation of another goroutine on
//     the same object that conflicts with it (the lock taken, the channel
//     emptied);
//   - any other finding: the last two pairs of conflicting accesses by
//     different goroutines (orders the schedule decided) that run in
//     opposite directions between the same two goroutines (an atomicity
//     violation); if there are none, the last two pairs, those of the
//     goroutine that failed first; if there are none (a goroutine failed
//     before any other touched what it used), the failing goroutine's last
//     access and what the others were about to do.
//
// It returns nil when the trace does not hold such events.
func (f *Finding) Signature() []SigRef {
	var refs []SigRef
	switch f.Kind {
	case KindRace:
		// An atomicity violation that let both accesses happen (two
		// closes that both passed their check) says more than the two
		// accesses; a plain race has none.
		if refs = f.edgeSignature(true); len(refs) < 2 {
			refs = f.raceSignature()
		}
	case KindDeadlock, KindLeak:
		refs = f.blockedSignature()
	}
	if len(refs) < 2 {
		refs = f.edgeSignature(false)
	}
	if len(refs) < 2 {
		refs = f.earlySignature()
	}
	if len(refs) < 2 {
		return nil
	}
	return refs
}

// traceIndex converts a position in f.Trace into an iteration index.
func (f *Finding) traceIndex(i int) int { return f.TraceDropped + i }

func (f *Finding) raceSignature() []SigRef {
	r := f.Race
	if r == nil {
		return nil
	}
	cur := -1
	for i := len(f.Trace) - 1; i >= 0; i-- {
		if ev := f.Trace[i]; ev.G == r.Cur.G && ev.Site == r.Cur.Site {
			cur = i
			break
		}
	}
	if cur < 0 {
		return nil
	}
	for i := cur - 1; i >= 0; i-- {
		if ev := f.Trace[i]; ev.G == r.Prev.G && ev.Site == r.Prev.Site {
			return []SigRef{{f.traceIndex(i), ev}, {f.traceIndex(cur), f.Trace[cur]}}
		}
	}
	return nil
}

func (f *Finding) blockedSignature() []SigRef {
	involved := map[int32]bool{}
	for _, g := range f.Goroutines {
		involved[g.ID] = true
	}
	// The test goroutine waiting for the others last (it is blocked
	// because they are); the others in the order they blocked, as far as
	// the trace tells: by their last event.
	lastOf := map[int32]int{}
	for i, ev := range f.Trace {
		lastOf[ev.G] = i
	}
	ps := append([]event.Event(nil), f.Pending...)
	waiting := func(p event.Event) bool { return p.G == 1 && p.Op == event.OpWGWait }
	sort.SliceStable(ps, func(i, j int) bool {
		if wi, wj := waiting(ps[i]), waiting(ps[j]); wi != wj {
			return wj
		}
		return lastOf[ps[i].G] < lastOf[ps[j].G]
	})
	var causes, pending []SigRef
	for _, p := range ps {
		if !involved[p.G] || p.Obj == 0 || len(pending) == 2 {
			continue
		}
		pending = append(pending, SigRef{-1, p})
		// The operation blocking it is the goroutine's own last event
		// when that is a channel operation that parked; look before it.
		for i := len(f.Trace) - 1; i >= 0; i-- {
			ev := f.Trace[i]
			if ev.G != p.G && ev.Obj == p.Obj && blocking(ev.Op, p.Op) {
				causes = append(causes, SigRef{f.traceIndex(i), ev})
				break
			}
		}
	}
	sort.Slice(causes, func(i, j int) bool { return causes[i].Index < causes[j].Index })
	return dedupe(append(causes, pending...))
}

// blocking reports whether an operation can be why another, on the same
// object, blocks: a lock taken against a lock request, any channel
// operation against a channel operation.
func blocking(by, blocked event.Op) bool {
	switch blocked {
	case event.OpLock, event.OpWLock, event.OpRLock:
		return by == event.OpLock || by == event.OpWLock || by == event.OpRLock
	case event.OpSend, event.OpRecv, event.OpSelect:
		return by == event.OpSend || by == event.OpRecv || by == event.OpClose || by == event.OpSelect
	case event.OpWGWait:
		return by == event.OpWGAdd
	}
	return event.Conflicts(event.Event{G: 1, Op: by, Obj: 1}, event.Event{G: 2, Op: blocked, Obj: 1})
}

// orderOps are the operations whose order across goroutines a signature
// records: data and channel operations. Lock operations are left out: the
// accesses they protect say more, and their order follows.
func orderOp(op event.Op) bool {
	switch op {
	case event.OpRead, event.OpWrite, event.OpAtomicLoad, event.OpAtomicStore, event.OpAtomicRMW,
		event.OpMapRead, event.OpMapWrite, event.OpSend, event.OpRecv, event.OpClose, event.OpPoolGet, event.OpPoolPut:
		return true
	}
	return false
}

func (f *Finding) edgeSignature(cycleOnly bool) []SigRef {
	// An edge orders two conflicting accesses of different goroutines:
	// each access against the latest conflicting access of every other
	// goroutine to the same object.
	type edge struct{ a, b int }
	var edges []edge
	type access struct {
		g int32
		i int
	}
	last := map[int32][]access{}
	for i, ev := range f.Trace {
		if ev.Obj == 0 || !orderOp(ev.Op) {
			continue
		}
		acc := last[ev.Obj]
		from := -1
		for _, a := range acc {
			if a.g != ev.G && event.Conflicts(f.Trace[a.i], ev) && a.i > from {
				from = a.i
			}
		}
		if from >= 0 {
			edges = append(edges, edge{from, i})
		}
		n := 0
		for _, a := range acc {
			if a.g != ev.G {
				acc[n] = a
				n++
			}
		}
		last[ev.Obj] = append(acc[:n], access{ev.G, i})
	}
	g := func(i int) int32 { return f.Trace[i].G }
	var picked []edge
	// Two edges in opposite directions between the same two goroutines
	// (a before b, c before d, b no later than c, a and d in one
	// goroutine, b and c in the other): neither goroutine's accesses ran
	// as a whole before the other's, the shape of atomicity violations,
	// on one object (read, remote write, write) or two (the table and its
	// log). For a test failure, goroutines other than the test goroutine
	// first: it usually only checks the result.
	for pass := 0; pass < 2 && picked == nil; pass++ {
		for j := len(edges) - 1; j >= 0 && picked == nil; j-- {
			e2 := edges[j]
			if pass == 0 && f.Kind == KindTestFailure && (g(e2.a) == 1 || g(e2.b) == 1) {
				continue
			}
			for i := j - 1; i >= 0; i-- {
				e1 := edges[i]
				if e1.b <= e2.a && g(e1.a) == g(e2.b) && g(e1.b) == g(e2.a) {
					picked = []edge{e1, e2}
					break
				}
			}
		}
	}
	if picked == nil && !cycleOnly {
		// Else the last two edges, those of the goroutine that failed
		// first.
		var failing int32
		if len(f.Goroutines) > 0 {
			failing = f.Goroutines[0].ID
		}
		for pass := 0; pass < 2; pass++ {
			for i := len(edges) - 1; i >= 0 && len(picked) < 2; i-- {
				e := edges[i]
				involved := failing != 0 && (g(e.a) == failing || g(e.b) == failing)
				if involved == (pass == 0) {
					picked = append(picked, e)
				}
			}
		}
	}
	var refs []SigRef
	for _, e := range picked {
		refs = append(refs, SigRef{f.traceIndex(e.a), f.Trace[e.a]}, SigRef{f.traceIndex(e.b), f.Trace[e.b]})
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Index < refs[j].Index })
	return dedupe(refs)
}

// earlySignature is for a goroutine that failed before any other
// goroutine touched what it used (a use before initialization): its last
// data access, then what the other goroutines were about to do, which the
// failure came before.
func (f *Finding) earlySignature() []SigRef {
	if len(f.Goroutines) == 0 {
		return nil
	}
	g := f.Goroutines[0].ID
	var refs []SigRef
	for i := len(f.Trace) - 1; i >= 0; i-- {
		if ev := f.Trace[i]; ev.G == g && ev.Obj != 0 && orderOp(ev.Op) {
			refs = append(refs, SigRef{f.traceIndex(i), ev})
			break
		}
	}
	if refs == nil {
		return nil
	}
	for _, p := range f.Pending {
		switch p.Op {
		case event.OpNone, event.OpStart, event.OpResume, event.OpExit:
			continue
		}
		if p.G != g && len(refs) < maxSig {
			refs = append(refs, SigRef{-1, p})
		}
	}
	return refs
}

// dedupe drops repeated events and keeps at most maxSig.
func dedupe(refs []SigRef) []SigRef {
	var out []SigRef
	for _, r := range refs {
		dup := false
		for _, o := range out {
			if o.Index == r.Index && (r.Index >= 0 || o.Ev == r.Ev) {
				dup = true
			}
		}
		if !dup && len(out) < maxSig {
			out = append(out, r)
		}
	}
	return out
}
