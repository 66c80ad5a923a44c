package event

import "testing"

func TestConflicts(t *testing.T) {
	w1 := Event{G: 1, Op: OpWrite, Obj: 3}
	r2 := Event{G: 2, Op: OpRead, Obj: 3}
	for _, tc := range []struct {
		a, b Event
		want bool
	}{
		{w1, r2, true},
		{r2, Event{G: 3, Op: OpRead, Obj: 3}, false},  // reads commute
		{w1, Event{G: 1, Op: OpWrite, Obj: 3}, false}, // same goroutine
		{w1, Event{G: 2, Op: OpWrite, Obj: 4}, false}, // other object
		{Event{G: 1, Op: OpRLock, Obj: 5}, Event{G: 2, Op: OpRLock, Obj: 5}, false},
		{Event{G: 1, Op: OpRLock, Obj: 5}, Event{G: 2, Op: OpWLock, Obj: 5}, true},
		{Event{G: 1, Op: OpSend, Obj: 6}, Event{G: 2, Op: OpRecv, Obj: 6}, true},
		{Event{G: 1, Op: OpYield}, Event{G: 2, Op: OpWrite, Obj: 4}, true}, // the yielder is passed over next
		{Event{G: 1, Op: OpMapRead, Obj: 7}, Event{G: 2, Op: OpMapRead, Obj: 7}, false},
		{Event{G: 0, Op: OpTimerFire, Obj: 9}, r2, true}, // the clock
		{Event{G: 1, Op: OpNow}, r2, true},
		{Event{G: 1, Op: OpExit}, r2, true}, // the test returns
		{Event{G: 3, Op: OpExit}, r2, false},
		{Event{G: 2, Op: OpNow}, Event{G: 2, Op: OpWrite, Obj: 3}, false}, // same goroutine
	} {
		if got := Conflicts(tc.a, tc.b); got != tc.want || Conflicts(tc.b, tc.a) != tc.want {
			t.Errorf("Conflicts(%v, %v) = %v, want %v (both ways)", tc.a, tc.b, got, tc.want)
		}
	}
}
