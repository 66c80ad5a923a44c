package rt_test

import (
	"sync"
	"testing"

	"interleave.dev/rt"
)

// exchangeFirst starts two goroutines that pass ten values over an
// unbuffered channel and then note, under a lock, that they are done; the
// test goroutine then looks under the lock. The panic needs the test
// goroutine passed over at each of the exchange's 40 or so points: a
// schedule that only switches rarely still hands it the processor when
// the goroutine that ran blocks, half the time.
func exchangeFirst(fixed bool) func() {
	return func() {
		var mu sync.Mutex
		over := false
		ch := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			for i := 0; i < 10; i++ {
				rt.Send(ch, i, 0)
			}
		}, 0)
		rt.Go(func() {
			for i := 0; i < 10; i++ {
				rt.Recv(ch, 0)
			}
			rt.Lock(&mu, 0)
			over = true
			rt.Unlock(&mu, 0)
		}, 0)
		rt.Lock(&mu, 0)
		seen := over
		rt.Unlock(&mu, 0)
		if seen && !fixed {
			panic("the exchange was over before the test goroutine looked")
		}
	}
}

// TestRandomHoldsBack: random holds a goroutine back for the rest of a
// schedule in some schedules (strategy.mix), which finds the bug that
// needs the test goroutine to wait out the whole exchange; the fixed
// twin gets no report.
func TestRandomHoldsBack(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		rep, err := rt.Explore("ExchangeFirst", rt.Options{Strategy: "random", Seed: seed, Schedules: 2000, ScheduleDir: "-"}, exchangeFirst(false))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "panic" {
			t.Errorf("seed %d: %q after %d schedules, want the panic", seed, rep.Kind, rep.Schedules)
		} else {
			t.Logf("seed %d: found after %d schedules", seed, rep.Schedules)
		}
		rep, err = rt.Explore("ExchangeFirst", rt.Options{Strategy: "random", Seed: seed, Schedules: 500, ScheduleDir: "-"}, exchangeFirst(true))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "" {
			t.Errorf("seed %d, fixed twin: %s: %s", seed, rep.Kind, rep.Message)
		}
	}
}
