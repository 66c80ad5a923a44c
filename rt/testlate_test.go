package rt_test

import (
	"strings"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// A goroutine that fails t after its test returned panics in Go ("Fail in
// goroutine after TestX has completed"); inside an exploration it is that
// panic, found in the schedules where the test returns first. A late t.Log
// alone does not panic while the test binary runs: Go writes it to the
// parent, the binary's root test.

func lateT(t *testing.T, body func(t *testing.T)) *rt.Report {
	t.Helper()
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 200, ScheduleDir: "-"}, func() { body(t) })
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestTLogAfterTestReturnedIsSilent(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TLog(t, "late", 1) }, 0)
	})
	if rep.Kind != "" {
		t.Fatalf("got %q: %q, want nothing", rep.Kind, rep.Message)
	}
}

func TestTErrorfAfterTestReturned(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TErrorf(t, "bad %d", 2) }, 0)
	})
	want := "Fail in goroutine after " + t.Name() + " has completed"
	if rep.Kind != "panic" || !strings.Contains(rep.Message, want) {
		t.Fatalf("got %q: %q, want a panic %q", rep.Kind, rep.Message, want)
	}
}

func TestTFatalAfterTestReturned(t *testing.T) {
	rep := lateT(t, func(t *testing.T) {
		rt.Go(func() { rt.TFatal(t, "bad") }, 0)
	})
	want := "Fail in goroutine after " + t.Name() + " has completed"
	if rep.Kind != "panic" || !strings.Contains(rep.Message, want) {
		t.Fatalf("got %q: %q, want a panic %q", rep.Kind, rep.Message, want)
	}
}

func TestTLogBeforeTestReturned(t *testing.T) {
	// The fixed twin: the test waits for the goroutine, whose t.Error is
	// then an ordinary failure of the test; a cleanup is still inside the
	// test.
	rep := lateT(t, func(t *testing.T) {
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.TError(t, "in time") }, 0)
		rt.TCleanup(t, func() { rt.TLog(t, "cleanup") })
		rt.WGWait(&wg, 0)
	})
	if rep.Kind != "test failure" || !strings.HasSuffix(rep.Message, "in time") {
		t.Fatalf("got %q: %q, want the test failure only", rep.Kind, rep.Message)
	}
}
