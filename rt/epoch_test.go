package rt_test

import (
	"testing"
	"time"

	"interleave.dev/rt"
)

// processStart is read natively, at package initialization, as libraries
// do to measure durations from ("time.Since(processStart)").
var processStart = time.Now()

// TestVirtualTimeIsAfterNativeTime checks that the virtual clock does not
// run behind times read natively before the exploration: a duration since
// one of them is positive, and grows with virtual time.
func TestVirtualTimeIsAfterNativeTime(t *testing.T) {
	before := time.Now()
	rep, err := rt.Explore("Since", rt.Options{Schedules: 5, ScheduleDir: "-"}, func() {
		d0 := rt.Since(processStart, 0)
		if d0 <= 0 || rt.Since(before, 0) < 0 {
			panic("virtual time is before a time read natively before the exploration")
		}
		rt.Sleep(time.Second, 0)
		// The clock also moves a little with every scheduling point.
		if d := rt.Since(processStart, 0) - d0; d < time.Second || d > time.Second+time.Millisecond {
			panic("a virtual second is not one: " + d.String())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Errorf("%s: %s", rep.Kind, rep.Text)
	}
}
