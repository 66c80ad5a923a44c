package rt_test

import (
	"sync"
	"testing"

	"interleave.dev/rt"
)

// sentinelRun is kernel mpc-sentinel's Run, as the instrumenter writes
// it: T1 publishes i+1 in two steps, T2 publishes j, T3 samples x and
// reports whether it saw 7.
func sentinelRun(i, j int) bool {
	if i+1 == 7 || j == 7 {
		return false
	}
	var mu sync.Mutex
	x := 0
	saw := false
	var wg sync.WaitGroup
	rt.WGAdd(&wg, 3, 0)
	rt.Go(func() {
		defer rt.WGDone(&wg, 0)
		rt.Lock(&mu, 0)
		rt.Write(&x, 0)
		x = i
		rt.Unlock(&mu, 0)
		rt.Lock(&mu, 0)
		rt.Read(&x, 0)
		rt.Write(&x, 0)
		x = x + 1
		rt.Unlock(&mu, 0)
	}, 0)
	rt.Go(func() {
		defer rt.WGDone(&wg, 0)
		rt.Lock(&mu, 0)
		rt.Write(&x, 0)
		x = j
		rt.Unlock(&mu, 0)
	}, 0)
	rt.Go(func() {
		defer rt.WGDone(&wg, 0)
		rt.Lock(&mu, 0)
		rt.Read(&x, 0)
		v := x
		rt.Unlock(&mu, 0)
		if v == 7 {
			rt.Write(&saw, 0)
			saw = true
		}
	}, 0)
	rt.WGWait(&wg, 0)
	rt.Read(&saw, 0)
	return saw
}

// TestReplayWithSmallVariablesSharingAWord: a helper run twice in one
// schedule makes a bool flag each time; the allocator may put the second
// in the same word as the first or not, depending on what the process
// allocated before (kernel mpc-sentinel). The finding's schedule must
// replay alike all the same, and in this process, whose allocator has
// moved on since the finding.
func TestReplayWithSmallVariablesSharingAWord(t *testing.T) {
	body := func() {
		for _, in := range [][2]int{{1, 2}, {3, 6}} {
			if sentinelRun(in[0], in[1]) {
				panic("sentinel")
			}
		}
	}
	for _, st := range []string{"random", "pct", "pcb", "dpor"} {
		rep, err := rt.Explore("Sentinel", rt.Options{Strategy: st, Schedules: 2000, ScheduleDir: "-"}, body)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "panic" {
			t.Errorf("%s: %q after %d schedules, want the panic", st, rep.Kind, rep.Schedules)
			continue
		}
		for i := 0; i < 3; i++ {
			again, err := rt.Explore("Sentinel", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, body)
			if err != nil {
				t.Fatal(err)
			}
			if again.Kind != rep.Kind || again.Diverged != "" || again.EventHash != rep.EventHash {
				t.Errorf("%s, replay %d: %q (diverged %q), hash %s, want %q, hash %s", st, i+1, again.Kind, again.Diverged, again.EventHash, rep.Kind, rep.EventHash)
			}
			_ = make([]byte, 3) // move the allocator on
		}
		// A file of version 2 hashed memory words' numbers: it replays by
		// its choices alone.
		old := *rep.Schedule
		old.Version, old.EventHash = 2, "1"
		again, err := rt.Explore("Sentinel", rt.Options{Strategy: "replay", Replay: &old, ScheduleDir: "-"}, body)
		if err != nil {
			t.Fatal(err)
		}
		if again.Kind != rep.Kind || again.Diverged != "" {
			t.Errorf("%s, a version 2 file: %q (diverged %q), want %q", st, again.Kind, again.Diverged, rep.Kind)
		}
	}
}
