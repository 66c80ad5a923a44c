package rt_test

import (
	"sync"
	"testing"

	"interleave.dev/rt"
)

// syncMapRangeDuringDeletes ranges over a sync.Map in one goroutine,
// with a scheduling point in the callback, while another deletes keys:
// which keys the range visits depends on the interleaving, and panics
// when it saw key 3 after key 5 was gone.
func syncMapRangeDuringDeletes() {
	var m sync.Map
	for k := 0; k < 8; k++ {
		rt.MapStore(&m, k, k, 0)
	}
	var wg sync.WaitGroup
	rt.WGGo(&wg, func() {
		for k := 4; k < 8; k++ {
			rt.MapDelete(&m, k, 0)
		}
	}, 0)
	saw3, gone5 := false, false
	rt.MapRange(&m, func(k, v any) bool {
		rt.Gosched(0)
		if k.(int) == 3 {
			saw3 = true
			_, ok := rt.MapLoad(&m, 5, 0)
			gone5 = !ok
		}
		return true
	}, 0)
	rt.WGWait(&wg, 0)
	if saw3 && gone5 {
		panic("saw key 3 with key 5 gone")
	}
}

// TestSyncMapRangeReplays: the keys a Range visits, and their order, are
// a function of the schedule. Natively the order follows hashes seeded
// per map, and a replay saw other keys and diverged.
func TestSyncMapRangeReplays(t *testing.T) {
	rep, err := rt.Explore(t.Name(), rt.Options{Schedules: 1000, ScheduleDir: "-"}, syncMapRangeDuringDeletes)
	if err != nil || rep.Kind != "panic" {
		t.Fatalf("got %q %v, want a panic", rep.Kind, err)
	}
	for i := 0; i < 10; i++ {
		again, err := rt.Explore(t.Name(), rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, syncMapRangeDuringDeletes)
		if err != nil {
			t.Fatal(err)
		}
		if again.Kind != "panic" || again.Diverged != "" || again.Schedule.EventHash != rep.Schedule.EventHash {
			t.Fatalf("replay %d: %q, diverged %q", i, again.Kind, again.Diverged)
		}
	}
}
