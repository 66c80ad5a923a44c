package rt_test

import (
	"fmt"
	"strings"
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

// TestVirtualTimeStartsOnASecond: every iteration starts on a whole
// second of the wall clock (keeping the monotonic reading), so that code
// counting whole seconds, such as a cache that stamps entries with
// time.Now().Unix() and expires them on a ticker, does the same in every
// process that runs a schedule, whenever the process began.
func TestVirtualTimeStartsOnASecond(t *testing.T) {
	rep, err := rt.Explore(t.Name(), rt.Options{Schedules: 3, ScheduleDir: "-"}, func() {
		now := rt.Now(0)
		if into := now.Sub(now.Truncate(time.Second)); into > time.Millisecond {
			panic(fmt.Sprintf("the iteration starts %v into a second", into))
		}
		if !strings.Contains(rt.Epoch.String(), "m=") {
			panic("the start of virtual time has no monotonic reading: " + rt.Epoch.String())
		}
	})
	if err != nil || rep.Kind != "" {
		t.Fatalf("got %v %v", rep, err)
	}
}
