//go:build go1.23

package rt_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
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

// firstKeyIter is what it does in a file before Go 1.23.
func firstKeyIter[K comparable, V any](m map[K]V) K {
	//lint:ignore SA4006 the loop the instrumenter writes: the zero values declare the variables
	for it, k, _ := rt.RangeMapIter(m, 0); it.Next(); {
		k = it.Key()
		return k
	}
	var zero K
	return zero
}

// rangeForms are the two forms of "for k, v := range m { if !f(k, v) {
// break } }" in instrumented code: in files of Go 1.23 and later, and
// before.
var rangeForms = []struct {
	name string
	each func(m map[float64]int, f func(k float64, v int) bool)
}{
	{"RangeMap", func(m map[float64]int, f func(k float64, v int) bool) {
		for k, v := range rt.RangeMap(m, 0) {
			if !f(k, v) {
				break
			}
		}
	}},
	{"MapIter", func(m map[float64]int, f func(k float64, v int) bool) {
		//lint:ignore SA4006 the loop the instrumenter writes: the zero values declare the variables
		for it, k, v := rt.RangeMapIter(m, 0); it.Next(); {
			k, v = it.Entry()
			if !f(k, v) {
				break
			}
		}
	}},
}

func TestMapOrderFollowsTheSchedule(t *testing.T) {
	for _, form := range []struct {
		name  string
		first func(map[int]string) int
	}{{"RangeMap", firstKey[int, string]}, {"MapIter", firstKeyIter[int, string]}} {
		t.Run(form.name, func(t *testing.T) { testMapOrderFollowsTheSchedule(t, form.first) })
	}
}

func testMapOrderFollowsTheSchedule(t *testing.T, firstKey func(map[int]string) int) {
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

// The iterator of files before Go 1.23 produces what RangeMap produces,
// schedule by schedule: the same entries in the same order, skipping
// those deleted before they are reached, with the values the map holds
// when they are, and NaN keys until a clear.
func TestMapIterRangesAsRangeMap(t *testing.T) {
	run := func(each func(map[float64]int, func(float64, int) bool)) (runs []string) {
		var x int
		rep, err := rt.Explore("MapIter", rt.Options{Schedules: 30, ScheduleDir: "-", NoRace: true}, func() {
			var out []string
			var wg sync.WaitGroup
			rt.WGGo(&wg, func() { rt.Write(&x, 0) }, 0)
			rt.Write(&x, 0) // the events so far differ between schedules
			m := map[float64]int{math.NaN(): 100, math.NaN(): 100}
			for i := 0; i < 8; i++ {
				m[float64(i)] = i
			}
			n := 0
			each(m, func(k float64, v int) bool {
				out = append(out, fmt.Sprint(k, v))
				n++
				switch n {
				case 2:
					delete(m, 1)
					delete(m, 5)
					m[3], m[7], m[20] = 33, 77, 20
				case 8:
					return false
				}
				return true
			})
			out = append(out, "|")
			each(m, func(k float64, v int) bool {
				out = append(out, fmt.Sprint(k, v))
				if len(out)%3 == 0 {
					clear(m)
				}
				return true
			})
			rt.WGWait(&wg, 0)
			runs = append(runs, strings.Join(out, " "))
		})
		if err != nil || rep.Kind != "" {
			t.Fatalf("got %q, %v", rep.Kind, err)
		}
		return runs
	}
	want, got := run(rangeForms[0].each), run(rangeForms[1].each)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schedule by schedule,\nRangeMap: %q\nMapIter:  %q", want, got)
	}
	distinct := map[string]bool{}
	for _, r := range got {
		distinct[r] = true
	}
	if len(distinct) < 10 {
		t.Errorf("%d orders over %d schedules: %q", len(distinct), len(got), got)
	}
}

func TestMapIterOutsideAnExploration(t *testing.T) {
	if !*rt.IterLayout {
		t.Errorf("the entries of reflect.MapIter are not where the compiler's range loops find them")
	}
	// Read through the iterator's layout, or through reflect.
	for _, layout := range []bool{true, false} {
		t.Run(fmt.Sprintf("layout=%v", layout), func(t *testing.T) {
			defer func(was bool) { *rt.IterLayout = was }(*rt.IterLayout)
			*rt.IterLayout = layout
			testMapIterOutsideAnExploration(t)
		})
	}
}

func testMapIterOutsideAnExploration(t *testing.T) {
	// Go's own iteration: every entry once, deleted entries skipped,
	// current values, NaN keys produced; nothing for a nil map.
	each := rangeForms[1].each
	m := map[float64]int{1: 1, 2: 2, 3: 3, math.NaN(): 4, math.NaN(): 4}
	sum, nans := 0, 0
	each(m, func(k float64, v int) bool {
		if k != k {
			nans++
		}
		sum += v
		return true
	})
	if sum != 14 || nans != 2 {
		t.Errorf("sum %d, %d NaN keys", sum, nans)
	}
	for i := 0; i < 20; i++ {
		m := map[float64]int{1: 1, 2: 2, 3: 3, 4: 4}
		var seen []int
		each(m, func(k float64, v int) bool {
			seen = append(seen, v)
			if len(seen) == 1 {
				for o := range m {
					if o != k && o != 4 {
						delete(m, o)
					}
				}
				if k != 4 {
					m[4] = 40
				}
			}
			return true
		})
		if len(seen) > 2 || len(seen) == 2 && seen[1] != 40 {
			t.Fatalf("got %v", seen)
		}
	}
	var nilMap map[float64]int
	each(nilMap, func(float64, int) bool { t.Error("an entry in a nil map"); return true })
	n := 0
	each(map[float64]int{1: 1, 2: 2, 3: 3}, func(float64, int) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("%d iterations, want 2 before the break", n)
	}
	if k := firstKeyIter(map[int]string{7: "x"}); k != 7 {
		t.Errorf("first key %d", k)
	}
	type big struct {
		//lint:ignore U1000 it makes the key large
		a [20]int
		s string
	}
	bm := map[big]big{{s: "k"}: {s: "v"}}
	for it, k, v := rt.RangeMapIter(bm, 0); it.Next(); {
		k, v = it.Entry()
		if k.s != "k" || v.s != "v" {
			t.Errorf("got %v, %v", k, v)
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

// The cost of a range over a map outside an exploration: natively, over
// RangeMap and over MapIter.
func BenchmarkMapRangeOutsideAnExploration(b *testing.B) {
	for _, n := range []int{1, 8, 1000} {
		m := map[int]int{}
		for i := 0; i < n; i++ {
			m[i] = i
		}
		sum := 0
		b.Run(fmt.Sprintf("native/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for k, v := range m {
					sum += k + v
				}
			}
		})
		b.Run(fmt.Sprintf("RangeMap/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for k, v := range rt.RangeMap(m, 0) {
					sum += k + v
				}
			}
		})
		b.Run(fmt.Sprintf("MapIter/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				//lint:ignore SA4006 the loop the instrumenter writes: the zero values declare the variables
				for it, k, v := rt.RangeMapIter(m, 0); it.Next(); {
					k, v = it.Entry()
					sum += k + v
				}
			}
		})
	}
}
