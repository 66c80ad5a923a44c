package rt_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// The default timer policy: a timer fires early (before its time, while
// goroutines could still run) only to wake a select that also waits for
// something else, or to run an AfterFunc callback, and only within the
// stall bound.

// fetch waits for a worker's result at most timeout; the worker blocks
// forever once fetch gave up (a goroutine leak whenever the timeout wins).
func fetch(timeout time.Duration) func() {
	return func() {
		ch := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(ch, 42, 0) }, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv[int](sel, ch)
		rt.SelectRecv[time.Time](sel, rt.After(timeout, 0))
		sel.Do(false)
	}
}

// watchdog is a test's guard against a hang: the work always finishes.
func watchdog() {
	done := rt.MakeChan[struct{}](0, 0)
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		rt.WGGo(&wg, func() { rt.Lock(&mu, 0); n++; rt.Unlock(&mu, 0) }, 0)
	}
	rt.Go(func() { rt.WGWait(&wg, 0); rt.Close(done, 0) }, 0)
	sel := rt.SelectStart(0)
	rt.SelectRecv[struct{}](sel, done)
	rt.SelectRecv[time.Time](sel, rt.After(time.Second, 0))
	if sel.Do(false) == 1 {
		panic("Do hangs")
	}
}

// sleepToLetBlock sleeps so that the goroutines above block before the
// one value they all wait for is sent.
func sleepToLetBlock() {
	c := rt.MakeChan[int](0, 0)
	var waiting int32
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		rt.WGGo(&wg, func() {
			rt.AtomicAddInt32(&waiting, 1, 0)
			rt.Recv(c, 0)
		}, 0)
	}
	rt.Sleep(10*time.Millisecond, 0)
	if rt.AtomicLoadInt32(&waiting, 0) != 3 {
		panic("not every goroutine waits")
	}
	rt.Close(c, 0)
	rt.WGWait(&wg, 0)
}

// pollDeadline polls a context with a deadline once, right away.
func pollDeadline() {
	ctx, cancel := rt.WithTimeout(context.Background(), 10*time.Millisecond, 0)
	defer cancel()
	sel := rt.SelectStart(0)
	rt.SelectRecv[struct{}](sel, ctx.Done())
	if sel.Do(true) == 0 {
		panic("the context expired at once")
	}
}

// lockWatchdog is a library's 30s AfterFunc watchdog around quick work.
func lockWatchdog() {
	t := rt.AfterFunc(30*time.Second, func() { panic("lock held for 30s") }, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < 2; i++ {
		rt.WGGo(&wg, func() { rt.Lock(&mu, 0); rt.Unlock(&mu, 0) }, 0)
	}
	rt.WGWait(&wg, 0)
	rt.TimerStop(t, 0)
}

// flusherStop is the timer-stop-deadlock kernel: Stop holds the mutex the
// AfterFunc callback needs and waits for the callback when Stop failed.
func flusherStop() {
	var mu sync.Mutex
	fired := rt.MakeChan[struct{}](0, 0)
	t := rt.AfterFunc(time.Millisecond, func() {
		rt.Lock(&mu, 0)
		rt.Unlock(&mu, 0)
		rt.Close(fired, 0)
	}, 0)
	rt.Lock(&mu, 0)
	if !rt.TimerStop(t, 0) {
		rt.Recv(fired, 0)
	}
	rt.Unlock(&mu, 0)
}

func TestDefaultTimersFindTimeoutBugs(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func()
		want string
	}{
		{"fetch", fetch(10 * time.Millisecond), "goroutine leak"},
		{"AfterFuncRacesStop", flusherStop, "deadlock"},
	} {
		for _, strat := range []string{"random", "pct", "dfs"} {
			rep, err := rt.Explore(tc.name, rt.Options{Strategy: strat, Schedules: 1000, ScheduleDir: "-"}, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Kind != tc.want {
				t.Errorf("%s, %s: got %q, want %q", tc.name, strat, rep.Kind, tc.want)
			}
		}
	}
}

func TestDefaultTimersDoNotStallForWatchdogsSleepsOrPolls(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func()
	}{
		{"watchdog", watchdog},
		{"fetchWithALongTimeout", fetch(time.Second)},
		{"sleepToLetBlock", sleepToLetBlock},
		{"pollDeadline", pollDeadline},
		{"lockWatchdog", lockWatchdog},
	} {
		for _, strat := range []string{"random", "pct", "dfs"} {
			rep, err := rt.Explore(tc.name, rt.Options{Strategy: strat, Schedules: 300, ScheduleDir: "-"}, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Kind != "" {
				t.Errorf("%s, %s: %s after %d schedules\n%s", tc.name, strat, rep.Kind, rep.Schedules, rep.Text)
			}
		}
	}
}
