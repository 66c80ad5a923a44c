package rt_test

import (
	"testing"

	"interleave.dev/rt"
)

// TestReduceKeepsEveryKernel: without scheduling points at plain memory
// accesses (Options.Reduce), random, pct and dpor still find every bug
// kernel, every finding replays (the schedule file says the points were
// left out), and the fixed twins stay clean under every strategy.
func TestReduceKeepsEveryKernel(t *testing.T) {
	for _, k := range kernels {
		for _, strat := range []string{"random", "pct", "dpor"} {
			for seed := int64(1); seed <= 2; seed++ {
				rep, err := rt.Explore(k.name, rt.Options{Strategy: strat, Seed: seed, Schedules: kernelBudget, MaxSteps: 2000, Reduce: true, ScheduleDir: t.TempDir()}, k.buggy)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Kind != k.kind {
					t.Errorf("%s (%s, seed %d, reduced): got %q after %d schedules, want %q\n%s", k.name, strat, seed, rep.Kind, rep.Schedules, k.kind, rep.Text)
					continue
				}
				if !rep.Schedule.Reduce {
					t.Errorf("%s: the schedule file does not say the points were reduced", k.name)
				}
				checkReplay(t, k.name, rep, k.buggy)
			}
		}
		for _, strat := range []string{"random", "pct", "dfs", "dpor"} {
			rep, err := rt.Explore(k.name+"Fixed", rt.Options{Strategy: strat, Schedules: kernelBudget, MaxSteps: 2000, Reduce: true, ScheduleDir: "-"}, k.fixed)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Kind != "" {
				t.Errorf("%s fixed (%s, reduced): false report after %d schedules:\n%s", k.name, strat, rep.Schedules, rep.Text)
			}
		}
	}
}

// TestReduceShrinksTheSpace: the fixed counter (increments under a
// mutex) has fewer interleavings to cover when its plain accesses are no
// scheduling points: dfs covers the whole space in fewer schedules.
func TestReduceShrinksTheSpace(t *testing.T) {
	_, fixed := counter(false), counter(true)
	var n [2]int
	for i, reduce := range []bool{false, true} {
		rep, err := rt.Explore("CounterFixed", rt.Options{Strategy: "dfs", Schedules: 100000, Reduce: reduce, ScheduleDir: "-"}, fixed)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Exhausted || rep.Kind != "" {
			t.Fatalf("reduce %v: exhausted %v after %d schedules, finding %q", reduce, rep.Exhausted, rep.Schedules, rep.Kind)
		}
		n[i] = rep.Schedules
	}
	t.Logf("dfs covers the fixed counter in %d schedules, %d reduced", n[0], n[1])
	if n[1] >= n[0] {
		t.Errorf("reduced: %d schedules, not fewer than %d", n[1], n[0])
	}
}
