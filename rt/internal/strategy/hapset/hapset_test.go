package hapset

import (
	"strings"
	"testing"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/dpor"
)

// TestHaPSetLearning: a statement's HaPSet gets the last conflicting
// access of each other goroutine to its object (Algorithm 2), unlocks
// and same-goroutine pairs are left out, two read-locks do not depend on
// each other, and a run with a finding teaches nothing.
func TestHaPSetLearning(t *testing.T) {
	key := func(site uint32) uint64 { return uint64(site) }
	st := func(site uint32) uint64 { return strategy.Mix64(key(site)) }
	ev := func(g int32, op event.Op, obj int32, site uint32) event.Event {
		return event.Event{G: g, Op: op, Obj: obj, Site: site}
	}
	run := func(h *HaPSet, finding bool, evs ...event.Event) {
		h.Begin()
		for i, e := range evs {
			h.Pending(e)
			h.Executed(e, i)
		}
		h.End(strategy.Outcome{Finding: finding})
	}
	store := NewHaPSets()
	h := NewHaPSet(dpor.NewSource(0), store, 0, 0, 1, key)
	run(h, false,
		ev(1, event.OpWrite, -1, 1), // g1 writes x
		ev(2, event.OpRead, -1, 2),  // g2 reads x: (1, 2)
		ev(3, event.OpRead, -1, 3),  // g3 reads x: (1, 3)
		ev(1, event.OpWrite, -1, 4), // g1 writes x: (2, 4), (3, 4)
		ev(1, event.OpWrite, -1, 5), // g1 again: its own access, nothing
		ev(2, event.OpLock, 7, 6),
		ev(2, event.OpUnlock, 7, 7),
		ev(3, event.OpLock, 7, 8), // (6, 8): the unlock is left out
		ev(2, event.OpRLock, 9, 10),
		ev(3, event.OpRLock, 9, 11), // read-locks: nothing
	)
	want := [][2]uint32{{1, 2}, {1, 3}, {2, 4}, {3, 4}, {6, 8}}
	if store.Len() != len(want) {
		t.Errorf("learned %d pairs, want %d", store.Len(), len(want))
	}
	for _, w := range want {
		if !store.has([2]uint64{st(w[0]), st(w[1])}) {
			t.Errorf("pair %v not learned", w)
		}
	}
	run(h, true, ev(1, event.OpWrite, -2, 20), ev(2, event.OpWrite, -2, 21))
	if store.has([2]uint64{st(20), st(21)}) {
		t.Error("a run with a finding was learned from")
	}
	run(h, false, ev(1, event.OpWrite, -2, 20), ev(2, event.OpWrite, -2, 21))
	if !store.has([2]uint64{st(20), st(21)}) {
		t.Error("the same run without a finding was not learned from")
	}
}

// TestHaPSetGuidesRace: dpor's race is reversed only when the order it
// would show is not covered yet.
func TestHaPSetGuidesRace(t *testing.T) {
	key := func(site uint32) uint64 { return uint64(site) }
	store := NewHaPSets()
	h := NewHaPSet(dpor.NewSource(0), store, 0, 0, 1, key)
	h.Begin()
	w := event.Event{G: 1, Op: event.OpWrite, Obj: -1, Site: 1}
	h.Pending(w)
	h.Executed(w, 0)
	r := event.Event{G: 2, Op: event.OpRead, Obj: -1, Site: 2}
	h.Pending(r)
	if !h.guideRace(1, r) {
		t.Error("a new ordering was skipped")
	}
	store.add([2]uint64{strategy.Mix64(2), strategy.Mix64(1)}) // the read seen right before the write
	if h.guideRace(1, r) || h.Pruned != 1 {
		t.Errorf("a covered ordering was not skipped (pruned %d)", h.Pruned)
	}
}

// TestHaPSetContext: with k call sites, one site reached through
// different callers is different statements; with none, one statement.
func TestHaPSetContext(t *testing.T) {
	key := func(site uint32) uint64 { return uint64(site) }
	for _, k := range []int{0, 1} {
		h := NewHaPSet(dpor.NewSource(0), NewHaPSets(), k, 0, 1, key)
		h.hidden = func(fn string) bool { return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "testing.") }
		a, b := ctxCallerA(h), ctxCallerB(h)
		if (a != b) != (k > 0) {
			t.Errorf("k=%d: statements %x and %x", k, a, b)
		}
		if a2 := ctxCallerA(h); a2 != a {
			t.Errorf("k=%d: one call site gave %x, then %x", k, a, a2)
		}
	}
}

//go:noinline
func ctxCallerA(h *HaPSet) uint64 { return ctxSite(h) }

//go:noinline
func ctxCallerB(h *HaPSet) uint64 { return ctxSite(h) }

// ctxSite is the function holding the statement; ctxPending stands for
// Observer.Pending, the caller of stmt.
//
//go:noinline
func ctxSite(h *HaPSet) uint64 { return ctxPending(h) }

//go:noinline
func ctxPending(h *HaPSet) uint64 { return h.stmt(5) }
