package rt_test

import (
	"context"
	"math/rand"
	"runtime/pprof"
	"testing"
	"time"

	"interleave.dev/rt"
)

// randomShape starts a number of goroutines drawn from math/rand (or v2),
// each drawing again, and then deadlocks if a last draw says so: the
// schedule, and so its event hash, depends on every value drawn.
func randomShape(draw func(n int) int) func() {
	return func() {
		c := rt.MakeChan[int](0, 0)
		done := rt.MakeChan[int](0, 0)
		n := 1 + draw(6)
		for i := 0; i < n; i++ {
			rt.Go(func() {
				for k := draw(3); k >= 0; k-- {
					rt.Gosched(0)
				}
				rt.Send(done, 1, 0)
			}, 0)
		}
		for i := 0; i < n; i++ {
			rt.Recv(done, 0)
		}
		if draw(4) == 0 {
			rt.Recv(c, 0) // nobody sends: a deadlock
		}
	}
}

// TestRandomValuesReplay: values drawn from the global functions of
// math/rand and math/rand/v2 are a function of the seed and the schedule,
// so a finding that depends on them replays every time.
func TestRandomValuesReplay(t *testing.T) {
	for name, draw := range map[string]func(int) int{"math/rand": rt.RandIntn, "math/rand/v2": rt.RandV2IntN} {
		t.Run(name, func(t *testing.T) {
			rep, err := rt.Explore("RandomShape", rt.Options{Seed: 3, ScheduleDir: "-"}, randomShape(draw))
			if err != nil || rep.Kind != "deadlock" {
				t.Fatalf("got %v %v", rep, err)
			}
			t.Logf("deadlock on schedule %d", rep.Schedules)
			for i := 0; i < 10; i++ {
				again, err := rt.Explore("RandomShape", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, randomShape(draw))
				if err != nil {
					t.Fatal(err)
				}
				if again.Diverged != "" || again.Kind != "deadlock" {
					t.Fatalf("replay %d: diverged %q, finding %q", i, again.Diverged, again.Kind)
				}
			}
		})
	}
	// Outside an exploration they are math/rand's.
	seen := map[int]bool{}
	for i := 0; i < 100; i++ {
		seen[rt.RandIntn(1000)] = true
	}
	if len(seen) < 50 {
		t.Errorf("rt.RandIntn outside an exploration drew %d distinct values of 100", len(seen))
	}
}

// TestRandSeed: rand.Seed inside an exploration seeds the iteration's
// source, so that a test that seeds to get known values gets those of
// rand.NewSource, in every schedule; unless rand.Seed does nothing in the
// program (GODEBUG randseednop, on by default from Go 1.24), when the
// values stay the iteration's.
func TestRandSeed(t *testing.T) {
	want := rand.New(rand.NewSource(1))
	wants := []int64{want.Int63(), want.Int63(), want.Int63()}
	nop := *rt.RandSeedNop
	t.Cleanup(func() { *rt.RandSeedNop = nop })
	for _, seeds := range []bool{true, false} {
		*rt.RandSeedNop = func() bool { return !seeds }
		matched := 0
		rep, err := rt.Explore(t.Name(), rt.Options{Schedules: 5, ScheduleDir: "-"}, func() {
			rt.RandSeed(1)
			for _, w := range wants {
				if rt.RandInt63() == w {
					matched++
				}
			}
		})
		if err != nil || rep.Kind != "" {
			t.Fatalf("got %v %v", rep, err)
		}
		if want := 15; seeds && matched != want {
			t.Errorf("rand.Seed(1) seeds: %d of %d draws were those of rand.NewSource(1)", matched, want)
		}
		if !seeds && matched != 0 {
			t.Errorf("rand.Seed(1) does nothing: %d draws were those of rand.NewSource(1)", matched)
		}
	}
	for _, c := range []struct{ s, v string }{{"", ""}, {"randseednop=0", "0"}, {"a=1,randseednop=0,b=2,randseednop=1", "1"}} {
		if v, _ := rt.GodebugSetting(c.s, "randseednop"); v != c.v {
			t.Errorf("randseednop in GODEBUG %q: %q, want %q", c.s, v, c.v)
		}
	}
}

// TestPprofDoKeepsControl: code run by pprof.Do stays under the
// scheduler's control (it deadlocks in the model, not natively), and so
// does the goroutine after it.
func TestPprofDoKeepsControl(t *testing.T) {
	body := func() {
		rt.PprofDo(context.Background(), pprof.Labels("worker", "1"), func(ctx context.Context) {
			if v, ok := pprof.Label(ctx, "worker"); !ok || v != "1" {
				panic("labels lost")
			}
			c := rt.MakeChan[int](0, 0)
			rt.Go(func() { rt.Send(c, 1, 0) }, 0)
			rt.Recv(c, 0)
		})
		rt.PprofSetGoroutineLabels(context.Background())
		rt.Recv(rt.MakeChan[int](0, 0), 0) // nobody sends: a deadlock
	}
	rep, err := rt.Explore("PprofDo", rt.Options{Seed: 1, Schedules: 5, StuckAfter: 500 * time.Millisecond, ScheduleDir: "-"}, body)
	if err != nil || rep.Kind != "deadlock" {
		t.Fatalf("got %+v %v", rep, err)
	}
}
