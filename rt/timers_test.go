package rt_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// waitResult starts a worker that takes work of virtual time and waits for
// its result at most timeout: the worker's send blocks forever once the
// caller gave up.
func waitResult(work, timeout time.Duration) func() {
	return func() {
		res := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			rt.Sleep(work, 0)
			rt.Send(res, 42, 0)
		}, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, res)
		rt.SelectRecv[time.Time](sel, rt.After(timeout, 0))
		sel.Do(false)
	}
}

func TestEagerTimersRaceWithRunnableWork(t *testing.T) {
	// The timeout can beat a worker that is runnable but not yet run; the
	// report says so, and how long a stall that takes.
	rep, err := rt.Explore("Eager", rt.Options{Timers: "eager", ScheduleDir: "-"}, waitResult(0, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "goroutine leak" || !strings.Contains(rep.Text, "timing: the 1h0m0s timer fired 59m59.99") || !strings.Contains(rep.Text, "2 that long; the finding needs such a stall") {
		t.Errorf("got %q:\n%s", rep.Kind, rep.Text)
	}
	// By default, only within the stall bound.
	rep, err = rt.Explore("Stall", rt.Options{ScheduleDir: "-"}, waitResult(0, time.Hour))
	if err != nil || rep.Kind != "" {
		t.Fatalf("an hour's stall by default: %v %q\n%s", err, rep.Kind, rep.Text)
	}
	rep, err = rt.Explore("Stall", rt.Options{ScheduleDir: "-"}, waitResult(0, 100*time.Millisecond))
	if err != nil || rep.Kind != "" {
		t.Fatalf("a 100ms stall by default: %v %q\n%s", err, rep.Kind, rep.Text)
	}
	rep, err = rt.Explore("Stall", rt.Options{ScheduleDir: "-"}, waitResult(0, 5*time.Millisecond))
	if err != nil || rep.Kind != "goroutine leak" || !strings.Contains(rep.Text, "fired 4.99") {
		t.Fatalf("a 5ms stall by default: %v %q\n%s", err, rep.Kind, rep.Text)
	}
}

func TestIdleTimersFireOnlyWhenNothingCanRun(t *testing.T) {
	// Only the order of deadlines matters: a worker that needs less time
	// than the timeout always wins, one that needs more always loses.
	for _, tc := range []struct {
		work time.Duration
		want string
	}{{time.Millisecond, ""}, {time.Second, "goroutine leak"}} {
		rep, err := rt.Explore("Idle", rt.Options{Strategy: "dfs", Timers: "idle", Schedules: 10000, LeaksAll: true, ScheduleDir: "-"}, waitResult(tc.work, 10*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != tc.want {
			t.Errorf("work %v: got %q, want %q\n%s", tc.work, rep.Kind, tc.want, rep.Text)
		}
		if tc.want == "" && !rep.Exhausted {
			t.Errorf("work %v: space not exhausted", tc.work)
		}
		if tc.want != "" {
			again, _ := rt.Explore("Idle", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, waitResult(tc.work, 10*time.Millisecond))
			if again.Kind != tc.want || again.Diverged != "" {
				t.Errorf("replay in idle mode: %q %q", again.Kind, again.Diverged)
			}
		}
	}
	if _, err := rt.Explore("Bad", rt.Options{Timers: "lazy"}, func() {}); err == nil {
		t.Error("unknown timer mode accepted")
	}
}

func TestPollingDoesNotMakeTimePass(t *testing.T) {
	// A goroutine that polls a channel (select with default) and goes on
	// must not force a pending timer to fire: with eager timers, the timer
	// may fire before any poll, or never, and everything in between; by
	// default, a timer never fires early into a poll.
	poll := func() string {
		deadline := rt.After(time.Second, 0)
		for i := 0; i < 3; i++ {
			sel := rt.SelectStart(0)
			rt.SelectRecv[time.Time](sel, deadline)
			if sel.Do(true) == 0 {
				return fmt.Sprint("fired before poll ", i)
			}
		}
		return "never fired"
	}
	expect(t, outcomes(t, rt.Options{Timers: "eager"}, poll), "fired before poll 0", "fired before poll 1", "fired before poll 2", "never fired")
	expect(t, outcomes(t, rt.Options{}, poll), "never fired")
}

func TestDefaultTimerOutcomes(t *testing.T) {
	// Sleeps never end early: the goroutines they let run do run.
	expect(t, outcomes(t, rt.Options{}, func() string {
		s := ""
		var mu sync.Mutex
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Sleep(20*time.Millisecond, 0); rt.Lock(&mu, 0); s += "b"; rt.Unlock(&mu, 0) }, 0)
		rt.WGGo(&wg, func() { rt.Sleep(10*time.Millisecond, 0); rt.Lock(&mu, 0); s += "a"; rt.Unlock(&mu, 0) }, 0)
		rt.WGWait(&wg, 0)
		return s
	}), "ab")
	// A timeout within the stall bound races with a result; one beyond
	// it, or a context deadline that nobody waits for, does not.
	race := func(d time.Duration) func() string {
		return func() string {
			res := rt.MakeChan[int](1, 0)
			rt.Go(func() { rt.Send(res, 1, 0) }, 0)
			ctx, cancel := rt.WithTimeout(context.Background(), d, 0)
			defer cancel()
			sel := rt.SelectStart(0)
			rt.SelectRecv[int](sel, res)
			rt.SelectRecv[struct{}](sel, ctx.Done())
			if sel.Do(false) == 0 {
				return "result"
			}
			return "timeout"
		}
	}
	expect(t, outcomes(t, rt.Options{}, race(10*time.Millisecond)), "result", "timeout")
	expect(t, outcomes(t, rt.Options{}, race(time.Second)), "result")
	expect(t, outcomes(t, rt.Options{Stall: 2 * time.Second}, race(time.Second)), "result", "timeout")
	expect(t, outcomes(t, rt.Options{Timers: "idle"}, race(time.Millisecond)), "result")
}

// TestTimersWithinSlackFireInEitherOrder: a timer that fires because its
// time has come wakes what it wakes a little late, as natively, so that
// two timers due within the slack of each other fire in either order;
// testing/synctest's exact clock (-timers=idle) keeps their order.
func TestTimersWithinSlackFireInEitherOrder(t *testing.T) {
	orders := func(timers string) map[string]bool {
		seen := map[string]bool{}
		rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Timers: timers, Schedules: 10000, NoRace: true, ScheduleDir: "-"}, func() {
			order := ""
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, w := range []struct {
				name string
				d    time.Duration
			}{{"a", time.Millisecond}, {"b", time.Millisecond + 10*time.Microsecond}} {
				rt.WGGo(&wg, func() {
					rt.Sleep(w.d, 0)
					rt.Lock(&mu, 0)
					order += w.name
					rt.Unlock(&mu, 0)
				}, 0)
			}
			rt.WGWait(&wg, 0)
			seen[order] = true
		})
		if err != nil || rep.Kind != "" || !rep.Exhausted {
			t.Fatalf("%s: %q %v, covered %v", timers, rep.Kind, err, rep.Exhausted)
		}
		return seen
	}
	if got := orders(""); !got["ab"] || !got["ba"] {
		t.Errorf("default timers: orders %v, want both", got)
	}
	if got := orders("idle"); len(got) != 1 || !got["ab"] {
		t.Errorf("idle timers: orders %v, want only ab", got)
	}
}
