package rt_test

import (
	"strings"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// A goroutine that logs or fails through t after its test returned panics
// in Go ("Log in goroutine after TestX has completed: ..."); inside an
// exploration it is that panic, found in the schedules where the test
// returns first.

func lateT(t *testing.T, body func(t *testing.T)) *rt.Report {
	t.Helper()
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 200, ScheduleDir: "-"}, func() { body(t) })
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestTLogAfterTestReturned(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TLog(t, "late", 1) }, 0)
	})
	want := "Log in goroutine after " + t.Name() + " has completed: late 1"
	if rep.Kind != "panic" || !strings.Contains(rep.Message, want) {
		t.Fatalf("got %q: %q, want a panic %q", rep.Kind, rep.Message, want)
	}
}

func TestTErrorfAfterTestReturned(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TErrorf(t, "bad %d", 2) }, 0)
	})
	want := "Log in goroutine after " + t.Name() + " has completed: bad 2"
	if rep.Kind != "panic" || !strings.Contains(rep.Message, want) {
		t.Fatalf("got %q: %q, want a panic %q", rep.Kind, rep.Message, want)
	}
}

func TestTFailAfterTestReturned(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TFail(t) }, 0)
	})
	want := "Fail in goroutine after " + t.Name() + " has completed"
	if rep.Kind != "panic" || !strings.Contains(rep.Message, want) {
		t.Fatalf("got %q: %q, want a panic %q", rep.Kind, rep.Message, want)
	}
}

func TestTLogBeforeTestReturned(t *testing.T) {
	// The fixed twin: the test waits for the goroutine; a log from a
	// cleanup is still inside the test.
	rep := lateT(t, func(t *testing.T) {
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.TLog(t, "in time") }, 0)
		rt.TCleanup(t, func() { rt.TLog(t, "cleanup") })
		rt.WGWait(&wg, 0)
	})
	if rep.Kind != "" {
		t.Fatalf("got %q: %q, want nothing", rep.Kind, rep.Message)
	}
	if !rep.Exhausted {
		t.Errorf("the space was not covered")
	}
}
