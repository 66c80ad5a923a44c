package rt_test

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/internal/explore"
	"interleave.dev/rt/wire"
)

// TestHelperRareRace fails only in the few schedules in which one
// goroutine reads a counter exactly when another has incremented it 7
// times of 12.
func TestHelperRareRace(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestWorkersDoNotChangeTheResult")
	}
	explore.WorkerDelay, explore.AwaitWorkers = 0, true // start the workers at once, so that they run
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
	Exhausted              bool
	Schedule               *wire.Schedule
}

func workersRun(t *testing.T, cfg wire.Config) runResult {
	t.Helper()
	r, _ := helperRun(t, "TestHelperRareRace", cfg)
	return r
}

func helperRun(t *testing.T, name string, cfg wire.Config) (runResult, string) {
	t.Helper()
	out, res := runHelper(t, name, cfg)
	if len(res) != 1 {
		t.Fatalf("%d results, want 1\n%s", len(res), out)
	}
	r := runResult{Outcome: res[0].Outcome, Kind: res[0].Kind, Message: res[0].Message, Schedules: res[0].Schedules, Exhausted: res[0].Exhausted}
	if res[0].Schedule != "" {
		s, err := wire.ReadSchedule(res[0].Schedule)
		if err != nil {
			t.Fatal(err)
		}
		s.View = nil // the page names where its process wrote the file
		r.Schedule = s
	}
	return r, out
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

// TestHelperTree has a search tree of many schedules under dfs: $TREE_G
// goroutines append to a list $TREE_K times each under a mutex, then
// write a variable of their own $TREE_E times. It fails when the list is
// $TREE_BAD.
func TestHelperTree(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestWorkersSplitTheTree")
	}
	explore.WorkerDelay, explore.AwaitWorkers = 0, true
	explore.TreeReport = func(by map[string]int) {
		fmt.Printf("schedules by process: %v\n", by)
	}
	bad := os.Getenv("TREE_BAD")
	gs, _ := strconv.Atoi(os.Getenv("TREE_G"))
	ks, _ := strconv.Atoi(os.Getenv("TREE_K"))
	es, _ := strconv.Atoi(os.Getenv("TREE_E"))
	rt.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var order []int
		for g := 1; g <= gs; g++ {
			rt.WGGo(&wg, func() {
				for k := 0; k < ks; k++ {
					rt.Lock(&mu, 0)
					order = append(order, g)
					rt.Unlock(&mu, 0)
				}
				own := 0
				for e := 0; e < es; e++ {
					rt.Write(&own, 0)
					own++
				}
			}, 0)
		}
		rt.WGWait(&wg, 0)
		if fmt.Sprint(order) == bad {
			rt.TErrorf(t, "the order %v", order)
		}
	})
}

var byProcess = regexp.MustCompile(`schedules by process: map\[([^\]]*)\]`)

// sameWithWorkers checks that the helper run with cfg and 2 or 3
// workers reports one, what it reports with 1, and that the workers took
// part in one of these runs.
func sameWithWorkers(t *testing.T, helper string, cfg wire.Config, one runResult) {
	t.Helper()
	shared := false
	// The parent waits for its workers before it explores
	// (explore.AwaitWorkers); should a loaded machine still let it run the
	// whole search first, a few more tries make sure they took part once.
	for try := 0; try < 4 && (try == 0 || !shared); try++ {
		for _, w := range []int{2, 3} {
			cfg.Workers = w
			got, out := helperRun(t, helper, cfg)
			if !reflect.DeepEqual(got, one) {
				t.Errorf("with %d workers\n%+v\nwith 1\n%+v", w, got, one)
			}
			m := byProcess.FindStringSubmatch(out)
			shared = shared || m != nil && strings.Count(m[1], ":") > 1
		}
	}
	if !shared {
		t.Errorf("the parent ran every part of the search alone, four times over: the workers were not tested")
	}
}

// setTree sets TestHelperTree's program for the test: g goroutines that
// append k times each, then write their own variable e times; it fails
// when the list is bad (never when empty).
func setTree(t *testing.T, g, k, e, bad string) {
	t.Setenv("TREE_G", g)
	t.Setenv("TREE_K", k)
	t.Setenv("TREE_E", e)
	t.Setenv("TREE_BAD", bad)
}

// dfs and pcb split their search trees between worker processes: with
// 2 or 3 workers a run reports what one process reports (the finding,
// its number and its schedule file; or the schedules and whether the
// space was covered), also when the search ends at -schedules, and when
// its first finding comes past it.
func TestWorkersSplitTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	for _, c := range []struct {
		name, strategy, g, k, e, bad string
		schedules, preemptions       int
		want                         runResult
	}{
		{"dfs finds", "dfs", "2", "1", "5", "[1 2]", 20000, 0, runResult{Outcome: "finding", Schedules: 6007}},
		{"dfs covers", "dfs", "2", "1", "3", "", 40000, 0, runResult{Outcome: "pass", Schedules: 33775, Exhausted: true}},
		{"dfs stops", "dfs", "2", "1", "3", "", 10000, 0, runResult{Outcome: "pass", Schedules: 10000}},
		{"dfs finds past the end", "dfs", "2", "1", "6", "[1 2]", 20000, 0, runResult{Outcome: "pass", Schedules: 20000}},
		{"pcb finds", "pcb", "2", "3", "2", "[2 1 2 1 2 1]", 20000, 4, runResult{Outcome: "finding", Schedules: 6406}},
		{"pcb passes", "pcb", "2", "3", "2", "", 20000, 4, runResult{Outcome: "pass", Schedules: 6652}},
		{"pcb stops", "pcb", "2", "3", "2", "", 3000, 4, runResult{Outcome: "pass", Schedules: 3000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			setTree(t, c.g, c.k, c.e, c.bad)
			cfg := wire.Config{Strategy: c.strategy, Schedules: c.schedules, Preemptions: c.preemptions}
			one, _ := helperRun(t, "TestHelperTree", cfg)
			if one.Outcome != c.want.Outcome || one.Schedules != c.want.Schedules || one.Exhausted != c.want.Exhausted {
				t.Fatalf("one process: %s after %d schedules, covered %v; want %+v", one.Outcome, one.Schedules, one.Exhausted, c.want)
			}
			sameWithWorkers(t, "TestHelperTree", cfg, one)
		})
	}
}

// The shards of a dfs or pcb search explore parts of it whose tally
// (wire.Tally, as "interleave merge" does it) is the run of one process:
// the same schedules and verdict, or the same finding, numbered alike,
// in the same schedule file but for the number the shard gave it within
// its share.
func TestShardsSplitTheTree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	for _, c := range []struct {
		name, strategy, g, k, e, bad string
		schedules, preemptions       int
	}{
		{"dfs finds", "dfs", "2", "1", "5", "[1 2]", 20000, 0},
		{"dfs covers", "dfs", "2", "1", "3", "", 40000, 0},
		{"dfs stops", "dfs", "2", "1", "3", "", 10000, 0},
		{"dfs finds past the end", "dfs", "2", "1", "6", "[1 2]", 20000, 0},
		{"pcb finds", "pcb", "2", "3", "2", "[2 1 2 1 2 1]", 20000, 4},
		{"pcb passes", "pcb", "2", "3", "2", "", 20000, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			setTree(t, c.g, c.k, c.e, c.bad)
			cfg := wire.Config{Strategy: c.strategy, Schedules: c.schedules, Preemptions: c.preemptions}
			one, _ := helperRun(t, "TestHelperTree", cfg)
			for _, n := range []int{2, 3} {
				var parts []wire.Part
				var found []wire.Result
				for k := 0; k < n; k++ {
					cfg.Shard = fmt.Sprintf("%d/%d", k, n)
					cfg.Workers = 1 + k%2 // the second shard with a worker
					out, res := runHelper(t, "TestHelperTree", cfg)
					if len(res) != 1 || res[0].Limit != c.schedules || len(res[0].Parts) == 0 {
						t.Fatalf("shard %s: %+v\n%s", cfg.Shard, res, out)
					}
					parts = append(parts, res[0].Parts...)
					if res[0].Kind != "" {
						found = append(found, res[0])
					}
				}
				tl := wire.Tally(parts, c.schedules)
				got := runResult{Outcome: "pass", Schedules: tl.Schedules, Exhausted: tl.Exhausted}
				if tl.Finding >= 0 {
					got.Outcome = "finding"
					for _, r := range found {
						for _, p := range r.Parts {
							if p.Finding && reflect.DeepEqual(p.Key, parts[tl.Finding].Key) {
								s, err := wire.ReadSchedule(r.Schedule)
								if err != nil {
									t.Fatal(err)
								}
								s.Iteration = tl.Schedules
								s.View = nil // as helperRun
								got.Kind, got.Message, got.Schedule = r.Kind, r.Message, s
							}
						}
					}
				}
				if !reflect.DeepEqual(got, one) {
					t.Errorf("%d shards\n%+v\none process\n%+v", n, got, one)
				}
			}
		})
	}
}

var oneProcess = regexp.MustCompile(`in one process: (\d+) executions, covered (\w+), first bad (\d+)`)

// dpor explores in rounds under the driver, whatever -workers: 1, 2 or
// 3 worker processes report what the rounds run in one process, without
// the driver's log, explore (the same executions and verdict, or the
// same finding, numbered alike, in the same schedule file), with wakeup
// trees and with source sets.
func TestWorkersSplitDPOR(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	for _, c := range []struct {
		name, program, bad, dpor string
		schedules                int
		want                     runResult
	}{
		{"covers", "lastzero(4)", "", "", 20000, runResult{Outcome: "pass", Schedules: 1088, Exhausted: true}},
		{"covers with source sets", "lastzero(4)", "", "source", 20000, runResult{Outcome: "pass", Schedules: 1574, Exhausted: true}},
		{"stops", "lastzero(4)", "", "", 500, runResult{Outcome: "pass", Schedules: 500}},
		{"finds", "lastzero(4)", "2 [0 1 2 1 2]", "", 20000, runResult{Outcome: "finding"}},
		{"covers philosophers with source sets", "philosophers(4)", "", "source", 20000, runResult{Outcome: "pass", Schedules: 892, Exhausted: true}},
		{"finds with source sets", "lastzero(4)", "2 [0 1 2 1 2]", "source", 20000, runResult{Outcome: "finding"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TEXTBOOK", c.program)
			t.Setenv("TEXTBOOK_BAD", c.bad)
			t.Setenv("TEXTBOOK_CHECK", "1")
			// The programs race on purpose: their outcomes are the point.
			cfg := wire.Config{Strategy: "dpor", DPOR: c.dpor, Schedules: c.schedules, Workers: 1, NoRace: true}
			one, out := helperRun(t, "TestHelperTextbook", cfg)
			if one.Outcome != c.want.Outcome || one.Outcome == "finding" && one.Kind != "test failure" || c.want.Schedules != 0 && (one.Schedules != c.want.Schedules || one.Exhausted != c.want.Exhausted) {
				t.Fatalf("one process: %s after %d schedules, covered %v; want %+v", one.Outcome, one.Schedules, one.Exhausted, c.want)
			}
			m := oneProcess.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("the helper did not say what the rounds explore:\n%s", out)
			}
			want := m[1]
			if one.Outcome == "finding" {
				want = m[3]
			}
			if fmt.Sprint(one.Schedules) != want {
				t.Errorf("the driver's rounds: %s after %d schedules; in one process without it: %s", one.Outcome, one.Schedules, m[0])
			}
			sameWithWorkers(t, "TestHelperTextbook", cfg, one)
		})
	}
}

// Under -budget a split search ends with the budget, in every process,
// with what it ran: no process waits for a job another stopped.
func TestWorkersSplitUnderBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("starts test processes")
	}
	setTree(t, "3", "2", "3", "")
	// A space no machine covers within the budget: lastzero(5) took
	// 0.29s in all on a fast one.
	t.Setenv("TEXTBOOK", "lastzero(7)")
	t.Setenv("TEXTBOOK_BAD", "")
	for _, c := range []struct{ helper, strategy string }{{"TestHelperTree", "dfs"}, {"TestHelperTree", "pcb"}, {"TestHelperTextbook", "dpor"}} {
		cfg := wire.Config{Strategy: c.strategy, Schedules: 1000000, Budget: wire.Duration(300 * time.Millisecond), Workers: 2, NoRace: true, Preemptions: 6}
		if c.strategy == "dpor" {
			cfg.Preemptions = 0
		}
		out, res := runHelper(t, c.helper, cfg)
		if len(res) != 1 || res[0].Outcome != wire.OutcomePass || res[0].Schedules == 0 || res[0].Exhausted {
			t.Errorf("%s: %+v\n%s", c.strategy, res, out)
		}
	}
}
