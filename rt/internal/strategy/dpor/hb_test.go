package dpor

import (
	"fmt"
	"testing"

	"interleave.dev/rt/internal/event"
)

// TestInitials: the initials of notdep(j).p are the goroutines whose
// first transition after j neither happens after j nor after another
// transition of that suffix (Abdulla et al. 2014, section 4).
func TestInitials(t *testing.T) {
	h := newHB(false, 100)
	h.reset()
	for i, e := range []event.Event{
		{G: 1, Op: event.OpWrite, Obj: 1, Site: 1}, // j
		{G: 2, Op: event.OpWrite, Obj: 2, Site: 2}, // independent of j: an initial
		{G: 3, Op: event.OpRead, Obj: 2, Site: 3},  // after g2's write: not one
		{G: 4, Op: event.OpRead, Obj: 1, Site: 4},  // after j: not in the suffix
	} {
		if k, _, _ := h.executed(e, -1); k != int32(i) {
			t.Fatalf("event %d is transition %d", i, k)
		}
		h.cut()
	}
	h.pending(event.Event{G: 5, Op: event.OpRead, Obj: 1, Site: 5})
	for _, tc := range []struct {
		p    int32
		want string
	}{
		{5, "map[2:true 5:true]"}, // g5 has no transition in the suffix: its step is first
		{3, "map[2:true]"},        // g3's transition in the suffix follows g2's
		{4, "map[2:true]"},        // g4's happens after j
	} {
		if got := fmt.Sprint(h.initials(0, tc.p)); got != tc.want {
			t.Errorf("initials(j, g%d) = %s, want %s", tc.p, got, tc.want)
		}
	}
}

// BenchmarkHBLongTransition: a goroutine that runs alone for b.N
// operations on a few words is one transition; each operation must cost
// the same however long it has run (its footprint holds each operation
// on an object once, indexed past a few).
func BenchmarkHBLongTransition(b *testing.B) {
	h := newHB(true, 1<<16)
	h.reset()
	h.executed(event.Event{G: 2, Op: event.OpWrite, Obj: 1, Site: 1}, -1)
	h.cut()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op := event.OpRead
		if i%3 == 0 {
			op = event.OpWrite
		}
		e := event.Event{G: 1, Op: op, Obj: int32(1 + i%8), Site: uint32(i % 64)}
		h.pending(e)
		h.executed(e, -1)
	}
}
