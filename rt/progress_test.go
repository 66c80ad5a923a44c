package rt_test

import (
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// TestExploreProgress checks that an exploration reports its progress
// between schedules, throttled, with growing counts.
func TestExploreProgress(t *testing.T) {
	type call struct {
		schedules int
		elapsed   time.Duration
	}
	var calls []call
	opts := rt.Options{
		Schedules: 300, ScheduleDir: "-",
		Progress: func(n int, elapsed time.Duration, covered float64) {
			if covered != 0 {
				t.Errorf("random reports covering %v of its space", covered)
			}
			calls = append(calls, call{n, elapsed})
		},
	}
	rep, err := rt.Explore("Progress", opts, func() {
		for start := time.Now(); time.Since(start) < 2*time.Millisecond; {
		}
	})
	if err != nil || rep.Kind != "" {
		t.Fatalf("exploration: %v, %+v", err, rep)
	}
	// 300 schedules of at least 2ms: at least 600ms, so 2 calls or more,
	// and never more than one per 200ms.
	if len(calls) < 2 || len(calls) > int(rep.Elapsed/(200*time.Millisecond)) {
		t.Fatalf("%d progress calls in %v: %+v", len(calls), rep.Elapsed, calls)
	}
	for i, c := range calls {
		if c.schedules <= 0 || c.schedules >= 300 || i > 0 && (c.schedules <= calls[i-1].schedules || c.elapsed-calls[i-1].elapsed < 200*time.Millisecond) {
			t.Errorf("call %d: %+v after %+v", i, c, calls[max(i-1, 0)])
		}
	}
}

// TestExploreProgressCoverage checks that dfs reports a growing estimate
// of the share of its space covered.
func TestExploreProgressCoverage(t *testing.T) {
	var covered []float64
	opts := rt.Options{
		Strategy: "dfs", Schedules: 40, ScheduleDir: "-",
		Progress: func(n int, elapsed time.Duration, c float64) { covered = append(covered, c) },
	}
	rep, err := rt.Explore("ProgressCoverage", opts, func() {
		var mu sync.Mutex
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 3, 0)
		for g := 0; g < 3; g++ {
			rt.Go(func() {
				defer rt.WGDone(&wg, 0)
				for k := 0; k < 2; k++ {
					rt.Lock(&mu, 0)
					rt.Unlock(&mu, 0)
				}
			}, 0)
		}
		rt.WGWait(&wg, 0)
		for start := time.Now(); time.Since(start) < 10*time.Millisecond; {
		}
	})
	if err != nil || rep.Kind != "" || rep.Exhausted {
		t.Fatalf("exploration: %v, %+v", err, rep)
	}
	if len(covered) == 0 {
		t.Fatal("no progress reported")
	}
	for i, c := range covered {
		if c <= 0 || c >= 1 || i > 0 && c <= covered[i-1] {
			t.Errorf("covered %v", covered)
		}
	}
}
