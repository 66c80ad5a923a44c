package rt_test

import (
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
)

// TestHelperRareRace fails only in the few schedules in which one
// goroutine reads a counter exactly when another has incremented it 7
// times of 12.
func TestHelperRareRace(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestWorkersDoNotChangeTheResult")
	}
	*rt.WorkerDelay = 0 // start the workers at once, so that they run
	rt.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		n, seen := 0, -1
		rt.WGGo(&wg, func() {
			for k := 0; k < 12; k++ {
				rt.Lock(&mu, 0)
				n++
				rt.Unlock(&mu, 0)
			}
		}, 0)
		rt.WGGo(&wg, func() {
			rt.Lock(&mu, 0)
			seen = n
			rt.Unlock(&mu, 0)
		}, 0)
		// Work of its own makes a schedule long enough that the workers
		// take part.
		busy := 0
		for k := 0; k < 3000; k++ {
			rt.Write(&busy, 0)
			busy++
		}
		rt.WGWait(&wg, 0)
		if seen == 7 {
			rt.TErrorf(t, "saw the counter at 7")
		}
	})
}

// What a run reports, less what may differ between runs (times, paths).
type runResult struct {
	Outcome, Kind, Message string
	Schedules              int
	Schedule               *wire.Schedule
}

func workersRun(t *testing.T, cfg wire.Config) runResult {
	t.Helper()
	out, res := runHelper(t, "TestHelperRareRace", cfg)
	if len(res) != 1 {
		t.Fatalf("%d results, want 1\n%s", len(res), out)
	}
	r := runResult{Outcome: res[0].Outcome, Kind: res[0].Kind, Message: res[0].Message, Schedules: res[0].Schedules}
	if res[0].Schedule != "" {
		s, err := wire.ReadSchedule(res[0].Schedule)
		if err != nil {
			t.Fatal(err)
		}
		r.Schedule = s
	}
	return r
}

// The result of a run, the finding, the number of its schedule and the
// schedule file, is the same whatever the number of worker processes.
func TestWorkersDoNotChangeTheResult(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	found := 0
	for _, strategy := range []string{"random", "pct"} {
		for seed := int64(1); seed <= 3; seed++ {
			cfg := wire.Config{Strategy: strategy, Seed: seed, Schedules: 400}
			one := workersRun(t, cfg)
			for _, w := range []int{2, 3} {
				cfg.Workers = w
				if got := workersRun(t, cfg); !reflect.DeepEqual(got, one) {
					t.Errorf("%s seed %d: with %d workers\n%+v\nwith 1\n%+v", strategy, seed, w, got, one)
				}
			}
			if one.Kind != "" {
				found++
				t.Logf("%s seed %d: found on schedule %d", strategy, seed, one.Schedules)
			}
		}
	}
	if found == 0 {
		t.Error("no run found the lost update: the test shows nothing")
	}
}

// N shards of a run explore disjoint shares whose union is the run: the
// lowest finding of the shards is the run's, and without a finding their
// schedules add up to the run's.
func TestShardsPartitionTheSchedules(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	for seed := int64(1); seed <= 3; seed++ {
		cfg := wire.Config{Seed: seed, Schedules: 300}
		one := workersRun(t, cfg)
		low, total := 0, 0
		var lowRun runResult
		for k := 0; k < 3; k++ {
			cfg.Shard = fmt.Sprintf("%d/3", k)
			r := workersRun(t, cfg)
			if r.Kind != "" && (low == 0 || r.Schedules < low) {
				low, lowRun = r.Schedules, r
			}
			if r.Kind == "" {
				total += r.Schedules
			}
			if r.Kind != "" && (r.Schedules-1)%3 != k {
				t.Errorf("seed %d: shard %d/3 reports schedule %d, not its own", seed, k, r.Schedules)
			}
		}
		switch {
		case one.Kind == "" && (low != 0 || total != 300):
			t.Errorf("seed %d: the run passes %d schedules; the shards: finding at %d, %d schedules", seed, one.Schedules, low, total)
		case one.Kind != "" && !reflect.DeepEqual(lowRun, one):
			t.Errorf("seed %d: the run found\n%+v\nthe shards\n%+v", seed, one, lowRun)
		}
	}
}

// TestHelperBusy passes after long schedules: what splitting a test
// between workers speeds up (docs/scale.md measures it).
func TestHelperBusy(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by hand to measure -workers")
	}
	rt.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		n := 0
		for i := 0; i < 4; i++ {
			rt.WGGo(&wg, func() {
				for k := 0; k < 500; k++ {
					rt.Lock(&mu, 0)
					rt.Write(&n, 0)
					n++
					rt.Unlock(&mu, 0)
				}
			}, 0)
		}
		rt.WGWait(&wg, 0)
		if n != 2000 {
			rt.TErrorf(t, "n = %d", n)
		}
	})
}
