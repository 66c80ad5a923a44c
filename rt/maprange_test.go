//go:build go1.23

package rt_test

import (
	"math"
	"sync"
	"testing"

	"interleave.dev/rt"
)

// firstKey is what instrumented code does with "for k := range m { return k }".
func firstKey[K comparable, V any](m map[K]V) K {
	for k := range rt.RangeMap(m, 0) {
		return k
	}
	var zero K
	return zero
}

func TestMapOrderFollowsTheSchedule(t *testing.T) {
	// The first key decides how many events the run has, and the test
	// fails on one of them: different schedules see different orders, and
	// the failing one replays with the same events every time.
	var x int
	var fail bool
	seen := map[int]bool{}
	body := func() {
		m := map[int]string{}
		for i := 0; i < 8; i++ {
			m[i] = "v"
		}
		k := firstKey(m)
		seen[k] = true
		for i := 0; i < k; i++ {
			rt.Write(&x, 0)
		}
		if k == 5 && fail {
			rt.TErrorf(t, "first key %d", k)
		}
	}
	if rep, _ := rt.Explore("MapOrder", rt.Options{Schedules: 50, ScheduleDir: "-"}, body); rep.Kind != "" || len(seen) < 6 {
		t.Errorf("got %q; first keys over 50 schedules: %v", rep.Kind, seen)
	}
	fail = true
	rep, err := rt.Explore("MapOrder", rt.Options{Schedules: 200, ScheduleDir: t.TempDir()}, body)
	if err != nil || rep.Kind != "test failure" {
		t.Fatalf("got %q, %v after %d schedules (first keys %v)", rep.Kind, err, rep.Schedules, seen)
	}
	for i := 0; i < 20; i++ {
		again, err := rt.Explore("MapOrder", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, body)
		if err != nil || again.Kind != "test failure" || again.Diverged != "" {
			t.Fatalf("replay %d: got %q %q, %v", i, again.Kind, again.Diverged, err)
		}
	}
}

func TestMapRangeKeysOfEveryKind(t *testing.T) {
	// Every entry once, in an order that does not depend on Go's; deleted
	// entries are not produced; NaN keys are.
	type pair struct {
		a int
		b string
	}
	p1, p2 := new(int), new(int)
	run := func() (out []any) {
		_, err := rt.Explore("Kinds", rt.Options{Schedules: 1, ScheduleDir: "-"}, func() {
			out = nil
			f := map[float64]int{math.NaN(): 1, math.NaN(): 1, 0: 2, math.Inf(-1): 3}
			for k, v := range rt.RangeMap(f, 0) {
				out = append(out, k == k, v)
			}
			i := map[any]int{1: 1, "1": 2, 1.0: 3, pair{1, "x"}: 4, [2]int{1, 2}: 5, nil: 6, true: 7}
			for _, v := range rt.RangeMap(i, 0) {
				out = append(out, v)
			}
			ps := map[*int]int{p1: 1, p2: 2}
			n := 0
			for k := range rt.RangeMap(ps, 0) {
				delete(ps, p1)
				delete(ps, p2)
				ps[new(int)] = 3
				_ = k
				n++
			}
			out = append(out, n)
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := run()
	if len(first) != 8+7+1 || first[len(first)-1] != 1 {
		t.Fatalf("got %v", first)
	}
	for i := 0; i < 20; i++ {
		again := run()
		for j := range first[:len(first)-1] {
			if again[j] != first[j] {
				t.Fatalf("run %d: %v, first run %v", i, again, first)
			}
		}
	}
}

func TestMapRangeOutsideAnExploration(t *testing.T) {
	m := map[int]int{1: 1, 2: 2, 3: 3}
	sum := 0
	for k, v := range rt.RangeMap(m, 0) {
		sum += k * v
		if k == 2 {
			delete(m, 3)
			delete(m, 1)
		}
	}
	if sum != 4 && sum != 5 && sum != 13 && sum != 14 {
		t.Errorf("sum %d", sum)
	}
}

// Under a systematic strategy the map orders are a function of the
// choices (and the seed), not of the schedule's number: dfs covers a
// tree whose paths range over a map in different orders, and its
// finding replays (the exploration and the replay both draw the orders
// without the number; TestFixedMapOrderIgnoresTheNumber checks that the
// number plays no part).
func TestMapOrderUnderDFSFollowsTheChoices(t *testing.T) {
	var x int
	keys := map[int]bool{}
	fail, first := false, -1
	body := func() {
		m := map[int]string{}
		for i := 0; i < 8; i++ {
			m[i] = "v"
		}
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Write(&x, 0) }, 0)
		rt.Write(&x, 0) // the goroutine's write may come first, or not
		k := firstKey(m)
		keys[k] = true
		if first < 0 {
			first = k
		}
		for i := 0; i < k%3; i++ {
			rt.Write(&x, 0)
		}
		rt.WGWait(&wg, 0)
		if fail && k != first {
			rt.TErrorf(t, "first key %d", k)
		}
	}
	rep, err := rt.Explore("MapOrderDFS", rt.Options{Strategy: "dfs", Schedules: 1000, ScheduleDir: "-", NoRace: true}, body)
	if err != nil || rep.Kind != "" || !rep.Exhausted {
		t.Fatalf("dfs: %q, %v, covered %v after %d schedules", rep.Kind, err, rep.Exhausted, rep.Schedules)
	}
	if len(keys) < 2 {
		t.Errorf("first keys %v: the orders do not depend on the events", keys)
	}
	fail = true
	rep, err = rt.Explore("MapOrderDFS", rt.Options{Strategy: "dfs", Schedules: 1000, ScheduleDir: t.TempDir(), NoRace: true}, body)
	if err != nil || rep.Kind != "test failure" {
		t.Fatalf("got %q, %v", rep.Kind, err)
	}
	again, err := rt.Explore("MapOrderDFS", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, body)
	if err != nil || again.Kind != "test failure" || again.Diverged != "" {
		t.Fatalf("replay: got %q %q, %v", again.Kind, again.Diverged, err)
	}
}
