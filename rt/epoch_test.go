package rt_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
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
		if !strings.Contains(rt.Epoch().String(), "m=") {
			panic("the start of virtual time has no monotonic reading: " + rt.Epoch().String())
		}
	})
	if err != nil || rep.Kind != "" {
		t.Fatalf("got %v %v", rep, err)
	}
}

// TestHelperIntervalFromInit has the shape of a circuit breaker's tests: a
// package-level breaker whose interval starts when the package is
// initialized (read natively), tests that run after others, and a test
// that moves the interval's end back by 29 of its 30 seconds and expects
// it not to be over yet. While it is not, the test has a data race (it
// reads the counts a goroutine updates); once it is, it fails. The earlier
// tests take a second here, and longer on a loaded machine.
func TestHelperIntervalFromInit(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestVerdictDoesNotDependOnLoad")
	}
	expiry := rt.Now(0).Add(30 * time.Second) // as in the package's init
	time.Sleep(time.Second)                   // the tests that ran before
	rt.Test(t, func(t *testing.T) {
		end := expiry.Add(-29 * time.Second)
		if over := rt.Since(end, 0); over >= 0 {
			rt.TErrorf(t, "the interval is over: %v past its end", over)
			return
		}
		var counts int
		done := rt.MakeChan[struct{}](0, 0)
		rt.Go(func() {
			rt.Write(&counts, 0)
			counts++
			rt.Close(done, 0)
		}, 0)
		rt.Read(&counts, 0)
		_ = counts
		rt.Recv(done, 0)
	})
}

// TestVerdictDoesNotDependOnLoad runs TestHelperIntervalFromInit three
// times while goroutines keep every core busy: each time the interval is
// not over, the race is found, and a fresh process confirms it. When
// virtual time started from the wall clock at the exploration's start,
// the interval was over in the exploring process (a second of earlier
// tests, more under load) and whether it was in the confirming one
// depended on the load.
func TestVerdictDoesNotDependOnLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a helper process three times, a second each")
	}
	stop := make(chan struct{})
	defer close(stop)
	for i := 0; i < 2*runtime.NumCPU(); i++ {
		go func() {
			for n := 0; ; n++ {
				if n%1024 == 0 {
					select {
					case <-stop:
						return
					default:
					}
				}
			}
		}()
	}
	for run := 0; run < 3; run++ {
		out, res := runHelper(t, "TestHelperIntervalFromInit", wire.Config{Schedules: 50, Seed: 1})
		if len(res) != 1 || res[0].Outcome != wire.OutcomeFinding || res[0].Kind != "data race" {
			t.Fatalf("run %d: results %+v\n%s", run, res, out)
		}
	}
}
