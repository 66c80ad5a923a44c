package rt_test

import (
	"strings"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// The WaitGroup follows Go's race build of sync.WaitGroup: an Add from zero
// unordered with a concurrent Wait is a data race on the WaitGroup, and a
// WaitGroup reused before a previous Wait returned panics.

func TestWGAddInsideGoroutineRaces(t *testing.T) {
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 5000, ScheduleDir: "-"}, func() {
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			rt.Go(func() {
				rt.WGAdd(&wg, 1, 0)
				rt.WGDone(&wg, 0)
			}, 0)
		}
		rt.WGWait(&wg, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "data race" || !strings.HasPrefix(rep.Message, "Wait by goroutine 1 races with earlier Add from zero") {
		t.Errorf("got %q: %q, want a data race of Wait with an Add from zero", rep.Kind, rep.Message)
	}
}

func TestWGAddBeforeGoIsSilent(t *testing.T) {
	if k := raceOf(t, func() {
		var wg sync.WaitGroup
		x := 0
		for i := 0; i < 2; i++ {
			rt.WGAdd(&wg, 1, 0)
			rt.Go(func() {
				rt.WGDone(&wg, 0)
			}, 0)
		}
		rt.WGWait(&wg, 0)
		// A second round, after Wait returned.
		rt.WGGo(&wg, func() { rt.Write(&x, 0); x = 1 }, 0)
		rt.Go(func() { rt.WGWait(&wg, 0); rt.Read(&x, 0); _ = x }, 0)
		rt.WGWait(&wg, 0)
		rt.Read(&x, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestWGReusedBeforeWaitReturned(t *testing.T) {
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", NoRace: true, Schedules: 5000, ScheduleDir: "-"}, func() {
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 1, 0)
		done := rt.MakeChan[struct{}](0, 0)
		rt.Go(func() { rt.WGWait(&wg, 0); rt.Close(done, 0) }, 0)
		rt.Go(func() {
			rt.WGDone(&wg, 0)
			rt.WGAdd(&wg, 1, 0) // reused: the waiter may not have returned yet
			rt.WGDone(&wg, 0)
		}, 0)
		rt.Recv(done, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "panic" || !strings.Contains(rep.Message, "sync: WaitGroup is reused before previous Wait has returned") {
		t.Errorf("got %q: %q, want the reuse panic", rep.Kind, rep.Message)
	}
}

func TestWGFirstSeenThroughACopyHasItsOwnSemaphore(t *testing.T) {
	// Two WaitGroups whose words a struct copy touched first: an Add from
	// zero on one does not race with a Wait on the other.
	type job struct {
		wg   sync.WaitGroup
		done bool
	}
	if k := raceOf(t, func() {
		a, b := &job{}, &job{}
		rt.Read(a, 0)
		rt.Read(b, 0)
		rt.WGAdd(&a.wg, 1, 0)
		rt.Go(func() {
			rt.WGAdd(&b.wg, 1, 0)
			rt.WGDone(&b.wg, 0)
		}, 0)
		rt.Go(func() { rt.WGDone(&a.wg, 0) }, 0)
		rt.WGWait(&a.wg, 0)
		rt.Write(&a.done, 0)
		a.done = true
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

// TestWGAddConcurrentWithWait: the last Done and the wake-up of the
// waiters are two steps in sync.WaitGroup, and an Add from zero in between
// panics in Go, "Add called concurrently with Wait". Every panic explored
// is one Go raises, and that one is among them.
func TestWGAddConcurrentWithWait(t *testing.T) {
	seen := map[string]bool{}
	for seed := int64(1); seed <= 200 && !seen["sync: WaitGroup misuse: Add called concurrently with Wait"]; seed++ {
		rep, err := rt.Explore(t.Name(), rt.Options{Seed: seed, NoRace: true, Schedules: 1, ScheduleDir: "-"}, func() {
			var wg sync.WaitGroup
			rt.WGAdd(&wg, 1, 0)
			rt.Go(func() { rt.WGDone(&wg, 0) }, 0)
			rt.Go(func() {
				rt.WGAdd(&wg, 1, 0) // misuse: unordered with the Wait below
				rt.WGDone(&wg, 0)
			}, 0)
			rt.WGWait(&wg, 0)
		})
		if err != nil {
			t.Fatal(err)
		}
		switch rep.Message {
		case "", "sync: WaitGroup misuse: Add called concurrently with Wait", "sync: WaitGroup is reused before previous Wait has returned":
			seen[rep.Message] = true
		default:
			t.Fatalf("seed %d: %s: %s", seed, rep.Kind, rep.Message)
		}
	}
	if !seen["sync: WaitGroup misuse: Add called concurrently with Wait"] {
		t.Errorf("200 schedules saw %v, never the misuse panic", seen)
	}
}
