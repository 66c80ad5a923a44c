package mcr

import (
	"fmt"
	"testing"

	"interleave.dev/rt/wire"
)

const full = ^uint64(0)

// builder makes traces by hand, one event at a time; each method returns
// the index of the event it added.
type builder struct{ tr wire.MCRTrace }

func (b *builder) add(ev wire.MCREvent) int32 {
	b.tr.Events = append(b.tr.Events, ev)
	if int(ev.T) >= b.tr.Threads {
		b.tr.Threads = int(ev.T) + 1
	}
	return int32(len(b.tr.Events) - 1)
}

func (b *builder) access(t int32, acc ...wire.MCRMemAccess) int32 {
	return b.add(wire.MCREvent{T: t, K: wire.MCRAccess, Acc: acc})
}

func (b *builder) write(t, loc int32, v uint64) int32 { return b.access(t, wr(loc, full, v)) }
func (b *builder) read(t, loc int32, v uint64) int32  { return b.access(t, rd(loc, full, v)) }

func (b *builder) lock(t, obj int32) int32 {
	return b.add(wire.MCREvent{T: t, K: wire.MCRAcquire, Obj: obj})
}

func (b *builder) unlock(t, obj int32) int32 {
	return b.add(wire.MCREvent{T: t, K: wire.MCRRelease, Obj: obj})
}

func (b *builder) rlock(t, obj int32) int32 {
	return b.add(wire.MCREvent{T: t, K: wire.MCRAcquire, Obj: obj, Shared: true})
}

func (b *builder) runlock(t, obj int32) int32 {
	return b.add(wire.MCREvent{T: t, K: wire.MCRRelease, Obj: obj, Shared: true})
}

func (b *builder) init(loc int32, v uint64) {
	b.tr.Init = append(b.tr.Init, wire.MCRInit{Loc: loc, V: v})
}

func (b *builder) query(targets ...wire.MCRTarget) *wire.MCRQuery {
	return &wire.MCRQuery{Trace: b.tr, Targets: targets}
}

func wr(loc int32, mask, v uint64) wire.MCRMemAccess {
	return wire.MCRMemAccess{Loc: loc, Mask: mask, Write: true, WV: v}
}

func rd(loc int32, mask, v uint64) wire.MCRMemAccess {
	return wire.MCRMemAccess{Loc: loc, Mask: mask, Read: true, RV: v}
}

// target asks that the first access of event e read v.
func target(e int32, v uint64) wire.MCRTarget { return wire.MCRTarget{Event: e, Value: v} }

// blocked asks that acquire e be reached while another thread holds its
// lock.
func blocked(e int32) wire.MCRTarget { return wire.MCRTarget{Event: e, Blocked: true} }

// solveChecked solves q, expecting no error and one result per target,
// and checks every sat prefix with checkPrefix.
func solveChecked(t testing.TB, q *wire.MCRQuery) []wire.MCRResult {
	t.Helper()
	a := Solve(q)
	if a.Error != "" {
		t.Fatalf("Solve: %s", a.Error)
	}
	if len(a.Results) != len(q.Targets) {
		t.Fatalf("%d results for %d targets", len(a.Results), len(q.Targets))
	}
	for i, r := range a.Results {
		if r.Micros < 0 {
			t.Errorf("target %d: negative time %d", i, r.Micros)
		}
		if r.Status != wire.MCRSat {
			if r.Prefix != nil {
				t.Errorf("target %d: %s with a prefix %v", i, r.Status, r.Prefix)
			}
			continue
		}
		if err := checkPrefix(&q.Trace, q.Targets[i], r.Prefix); err != nil {
			t.Errorf("target %d %+v: prefix %v: %v", i, q.Targets[i], r.Prefix, err)
		}
	}
	return a.Results
}

// wantStatus checks the status of each result.
func wantStatus(t *testing.T, rs []wire.MCRResult, want ...string) {
	t.Helper()
	for i, r := range rs {
		if r.Status != want[i] {
			t.Errorf("target %d: %s (%s), want %s", i, r.Status, r.Reason, want[i])
		}
	}
}

// checkPrefix replays prefix sequentially over a memory that starts from
// the trace's initial values and reports the first way it is not a valid
// schedule reaching tg: an event run before the previous event of its
// thread or an event it must come after, a lock acquired while held, a
// read of a prefix event (other than the target) that does not return its
// trace value, or a target access that does not return tg.Value.
func checkPrefix(tr *wire.MCRTrace, tg wire.MCRTarget, prefix []int32) error {
	if len(prefix) == 0 || prefix[len(prefix)-1] != tg.Event {
		return fmt.Errorf("does not end with the target event %d", tg.Event)
	}
	prev := make([]int32, len(tr.Events)) // previous event of the thread
	last := make(map[int32]int32)
	for i, ev := range tr.Events {
		prev[i] = -1
		if p, ok := last[ev.T]; ok {
			prev[i] = p
		}
		last[ev.T] = int32(i)
	}
	m := newMemory(tr)
	done := make(map[int32]bool)
	held := make(map[int32]bool)             // a lock held exclusively
	holder := make(map[int32]int32)          // the thread that holds it
	readers := make(map[int32]map[int32]int) // lock -> thread -> read locks held
	for _, e := range prefix {
		if e < 0 || int(e) >= len(tr.Events) || done[e] {
			return fmt.Errorf("event %d out of range or repeated", e)
		}
		if p := prev[e]; p >= 0 && !done[p] {
			return fmt.Errorf("event %d runs before %d of its thread", e, p)
		}
		ev := tr.Events[e]
		for _, a := range ev.After {
			if !done[a] {
				return fmt.Errorf("event %d runs before %d, which it must follow", e, a)
			}
		}
		otherReaders := false
		for t, n := range readers[ev.Obj] {
			otherReaders = otherReaders || (t != ev.T && n > 0)
		}
		if tg.Blocked && e == tg.Event {
			// Reached, not run: its lock must be held, by another thread
			// (a read lock blocks only an exclusive acquire).
			byWriter := held[ev.Obj] && holder[ev.Obj] != ev.T
			if !byWriter && (ev.Shared || !otherReaders) {
				return fmt.Errorf("blocked target %d reached while lock %d is not held by another thread", e, ev.Obj)
			}
			return nil
		}
		switch {
		case ev.K == wire.MCRAcquire && held[ev.Obj]:
			return fmt.Errorf("event %d acquires lock %d while it is held", e, ev.Obj)
		case ev.K == wire.MCRAcquire && ev.Shared:
			if readers[ev.Obj] == nil {
				readers[ev.Obj] = make(map[int32]int)
			}
			readers[ev.Obj][ev.T]++
		case ev.K == wire.MCRAcquire && otherReaders:
			return fmt.Errorf("event %d acquires lock %d while another thread reads it", e, ev.Obj)
		case ev.K == wire.MCRAcquire:
			held[ev.Obj], holder[ev.Obj] = true, ev.T
		case ev.K == wire.MCRRelease && ev.Shared:
			if readers[ev.Obj][ev.T] > 0 {
				readers[ev.Obj][ev.T]--
			}
		case ev.K == wire.MCRRelease:
			held[ev.Obj] = false // a release of a free lock is ignored
		}
		for j, a := range ev.Acc {
			want, check := a.RV, a.Read
			if e == tg.Event {
				want, check = tg.Value, int32(j) == tg.Acc
			}
			if !check {
				continue
			}
			if err := m.check(a, want); err != nil {
				return fmt.Errorf("event %d access %d: %v", e, j, err)
			}
		}
		m.apply(ev.Acc)
		done[e] = true
	}
	return nil
}

// memory is the state of the locations during a sequential replay.
type memory struct {
	val   map[int32]uint64
	known map[int32]uint64 // the bits written or initialized
}

func newMemory(tr *wire.MCRTrace) *memory {
	m := &memory{val: make(map[int32]uint64), known: make(map[int32]uint64)}
	for _, in := range tr.Init {
		m.val[in.Loc], m.known[in.Loc] = in.V, full
	}
	return m
}

func (m *memory) clone() *memory {
	c := &memory{val: make(map[int32]uint64), known: make(map[int32]uint64)}
	for l, v := range m.val {
		c.val[l] = v
	}
	for l, k := range m.known {
		c.known[l] = k
	}
	return c
}

// check reports whether read access a returns want under its mask.
func (m *memory) check(a wire.MCRMemAccess, want uint64) error {
	if m.known[a.Loc]&a.Mask != a.Mask {
		return fmt.Errorf("reads unwritten bits of location %d", a.Loc)
	}
	if got := m.val[a.Loc] & a.Mask; got != want&a.Mask {
		return fmt.Errorf("location %d reads %#x, want %#x", a.Loc, got, want&a.Mask)
	}
	return nil
}

// apply performs the writes of accs.
func (m *memory) apply(accs []wire.MCRMemAccess) {
	for _, a := range accs {
		if a.Write {
			m.val[a.Loc] = m.val[a.Loc]&^a.Mask | a.WV&a.Mask
			m.known[a.Loc] |= a.Mask
		}
	}
}
