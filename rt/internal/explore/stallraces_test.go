package explore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/internal/explore"
)

// lateWriter is a data race that needs a stall: a goroutine waits 1ms on
// a timer, takes the lock, then writes without it; the test goroutine's
// quick locked reads come first on every schedule where the timer fires in
// time, and the lock orders them before the write. Natively, on a loaded
// machine that stalls the test goroutine for a millisecond, the write
// comes before a locked read, unordered with it: go test -race reported
// it in 209 of 220 runs of the generated program this is cut from
// (internal/difftest, seed 609). Run, as the driver does, follows the
// passing search with the schedules that may end such a wait early.
func lateWriter() {
	var mu sync.Mutex
	x := 0
	done := rt.MakeChan[struct{}](0, 0)
	rt.Go(func() {
		ctx, cancel := rt.WithTimeout(context.Background(), time.Millisecond, 0)
		defer cancel()
		rt.Recv(ctx.Done(), 0)
		rt.Lock(&mu, 0)
		rt.Read(&x, 0)
		rt.Unlock(&mu, 0)
		rt.Write(&x, 0)
		x = 1
		rt.Close(done, 0)
	}, 0)
	for i := 0; i < 2; i++ {
		rt.Lock(&mu, 0)
		rt.Read(&x, 0)
		_ = x
		rt.Unlock(&mu, 0)
	}
	rt.Recv(done, 0)
}

func TestRacesThatNeedAStallAreFound(t *testing.T) {
	for _, strat := range []string{"random", "pct", "dfs", "dpor"} {
		rep, err := explore.Run("lateWriter", explore.Options{Strategy: strat, Schedules: 1000, ScheduleDir: "-"}, lateWriter)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "data race" || !strings.Contains(rep.Text, "the finding needs such a stall: the "+strat+" search's") {
			t.Errorf("%s: got %q after %d schedules, want a data race that needs a stall\n%s", strat, rep.Kind, rep.Schedules, rep.Text)
			continue
		}
		// The count is the search's schedules and the stall schedules.
		var searched, all int
		fmt.Sscanf(rep.Text[strings.Index(rep.Text, "search's "):], "search's %d", &searched)
		fmt.Sscanf(rep.Text, "interleave: data race after %d", &all)
		if searched == 0 || all != searched+rep.Schedules {
			t.Errorf("%s: the report counts %d schedules, want the search's %d and the %d stall schedules:\n%s", strat, all, searched, rep.Schedules, rep.Text)
		}
	}
	// Without race detection, the stall is never assumed.
	rep, err := explore.Run("lateWriter", explore.Options{Schedules: 200, NoRace: true, ScheduleDir: "-"}, lateWriter)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Errorf("without race detection: %s\n%s", rep.Kind, rep.Text)
	}
}

// sleepThenCheck sleeps "to let the goroutines above block" and panics
// when one has not: under a stall it has not, which is no bug of the
// code, and no data race either.
func sleepThenCheck() {
	c := rt.MakeChan[int](0, 0)
	var waiting int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		rt.WGGo(&wg, func() {
			rt.AtomicAddInt32(&waiting, 1, 0)
			rt.Recv(c, 0)
		}, 0)
	}
	rt.Sleep(time.Millisecond, 0)
	if rt.AtomicLoadInt32(&waiting, 0) != 2 {
		panic("not every goroutine waits")
	}
	rt.Close(c, 0)
	rt.WGWait(&wg, 0)
}

func TestStallSchedulesReportOnlyRaces(t *testing.T) {
	// The search holds the sleep's timer back, so the stall schedules run.
	rep, err := explore.Explore("sleepThenCheck", explore.Options{Schedules: 300, ScheduleDir: "-"}, sleepThenCheck)
	if err != nil {
		t.Fatal(err)
	}
	if !explore.Held(rep) {
		t.Fatal("the search held no timer back: no stall schedules would run")
	}
	rep, err = explore.Run("sleepThenCheck", explore.Options{Schedules: 300, ScheduleDir: "-"}, sleepThenCheck)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Errorf("got %s after %d schedules\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
	// The stall does show the panic: the schedules ran.
	rep, err = explore.Run("sleepThenCheck", explore.Options{Schedules: 300, Timers: "stall-all", ScheduleDir: "-"}, sleepThenCheck)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "panic" {
		t.Errorf("under stall-all: got %q, want the panic", rep.Kind)
	}
}
