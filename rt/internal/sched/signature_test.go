package sched

import (
	"reflect"
	"testing"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
)

func ev(g int32, op event.Op, obj int32, site uint32) event.Event {
	return event.Event{G: g, Op: op, Obj: obj, Site: site}
}

func indexes(refs []SigRef) []int {
	var out []int
	for _, r := range refs {
		out = append(out, r.Index)
	}
	return out
}

// An ABBA deadlock: the two locks taken, then the two requests blocked, in
// the order the goroutines blocked; the test goroutine's Wait is left out.
func TestSignatureDeadlock(t *testing.T) {
	f := &Finding{Kind: KindDeadlock, TraceDropped: 100, Trace: []event.Event{
		ev(1, event.OpSpawn, 0, 1),
		ev(2, event.OpLock, 7, 10), // g2 takes A
		ev(3, event.OpLock, 8, 10), // g3 takes B
		ev(2, event.OpRead, 9, 11),
	},
		Goroutines: []GoroutineInfo{{ID: 1}, {ID: 2}, {ID: 3}},
		Pending: []event.Event{
			ev(1, event.OpWGWait, 5, 2),
			ev(2, event.OpLock, 8, 12), // g2 wants B
			ev(3, event.OpLock, 7, 12), // g3 wants A
		}}
	refs := f.Signature()
	want := []SigRef{
		{101, ev(2, event.OpLock, 7, 10)},
		{102, ev(3, event.OpLock, 8, 10)},
		{-1, ev(3, event.OpLock, 7, 12)}, // g3 blocked first: its last event is earlier
		{-1, ev(2, event.OpLock, 8, 12)},
	}
	if !reflect.DeepEqual(refs, want) {
		t.Errorf("got %+v\nwant %+v", refs, want)
	}
}

// A race behind which no atomicity violation lies: the two accesses.
func TestSignatureRace(t *testing.T) {
	f := &Finding{Kind: KindRace, Trace: []event.Event{
		ev(2, event.OpRead, 5, 20),
		ev(3, event.OpRead, 5, 20),
		ev(3, event.OpWrite, 5, 21),
	}, Race: &race.Race{Var: 5, Prev: race.Access{G: 2, Site: 20}, Cur: race.Access{G: 3, Site: 21, Write: true}}}
	if got := indexes(f.Signature()); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("got %v, want the read and the write", got)
	}
}

// A table and its log updated in two critical sections each: the two
// pairs of accesses in opposite directions between the two goroutines,
// not the test goroutine reading the result.
func TestSignatureAtomicityTwoObjects(t *testing.T) {
	const rows, log = 4, 6
	f := &Finding{Kind: KindTestFailure, Trace: []event.Event{
		ev(3, event.OpRead, rows, 30),  // 0 insert reads the table
		ev(2, event.OpWrite, rows, 31), // 1 remove clears it
		ev(2, event.OpWrite, log, 32),  // 2 remove logs
		ev(3, event.OpWrite, log, 33),  // 3 insert logs after it
		ev(1, event.OpRead, log, 34),   // 4 the test reads both
		ev(1, event.OpRead, rows, 35),  // 5
	}}
	if got := indexes(f.Signature()); !reflect.DeepEqual(got, []int{0, 1, 2, 3}) {
		t.Errorf("got %v, want the four accesses of the two goroutines", got)
	}
}

// A goroutine that used what another had not set yet: its access, then
// what the other was about to do.
func TestSignatureUseBeforeInit(t *testing.T) {
	f := &Finding{Kind: KindPanic, Trace: []event.Event{
		ev(1, event.OpSpawn, 0, 1),
		ev(2, event.OpLock, 3, 40),
		ev(2, event.OpRead, 4, 41),
	}, Goroutines: []GoroutineInfo{{ID: 2}}, Pending: []event.Event{ev(1, event.OpLock, 3, 42)}}
	want := []SigRef{{2, ev(2, event.OpRead, 4, 41)}, {-1, ev(1, event.OpLock, 3, 42)}}
	if got := f.Signature(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// Nothing to tell: no signature.
func TestSignatureNone(t *testing.T) {
	f := &Finding{Kind: KindTestFailure, Trace: []event.Event{ev(1, event.OpRead, 4, 1)}}
	if got := f.Signature(); got != nil {
		t.Errorf("got %+v, want none", got)
	}
}
