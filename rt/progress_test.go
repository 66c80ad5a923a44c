package rt_test

import (
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
		Progress: func(n int, elapsed time.Duration) { calls = append(calls, call{n, elapsed}) },
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
