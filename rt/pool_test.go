package rt_test

import (
	"sync"
	"testing"

	"interleave.dev/rt"
)

// sync.Pool is modeled: a Get returns any pooled object or a fresh one, a
// choice of the schedule, and the Put of an object happens before the Get
// that returns it, as in Go's race build.

type pooled struct{ n int }

func newPool(made *int) *sync.Pool {
	return &sync.Pool{New: func() any { *made++; return new(pooled) }}
}

func TestPoolGetModifyPutIsSilent(t *testing.T) {
	if k := raceOf(t, func() {
		made := 0
		p := newPool(&made)
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			rt.WGGo(&wg, func() {
				b := rt.PoolGet(p, 0).(*pooled)
				rt.Write(&b.n, 0)
				b.n++
				rt.PoolPut(p, b, 0)
			}, 0)
		}
		rt.WGWait(&wg, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestPoolUseAfterPutRaces(t *testing.T) {
	if k := raceOf(t, func() {
		made := 0
		p := newPool(&made)
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() {
			b := rt.PoolGet(p, 0).(*pooled)
			rt.PoolPut(p, b, 0)
			rt.Write(&b.n, 0) // used after Put
			b.n = 1
		}, 0)
		rt.WGGo(&wg, func() {
			b := rt.PoolGet(p, 0).(*pooled)
			rt.Read(&b.n, 0)
			_ = b.n
		}, 0)
		rt.WGWait(&wg, 0)
	}); k != "data race" {
		t.Errorf("got %q, want a data race", k)
	}
}

func TestPoolGetExploresEveryObject(t *testing.T) {
	// Two objects pooled: Get returns the first, the second or a fresh
	// one, and every run of the schedule is the same.
	seen := map[int]bool{}
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 100, ScheduleDir: "-"}, func() {
		made := 0
		p := newPool(&made)
		rt.PoolPut(p, &pooled{n: 1}, 0)
		rt.PoolPut(p, &pooled{n: 2}, 0)
		rt.PoolPut(p, nil, 0) // ignored, as in Go
		seen[rt.PoolGet(p, 0).(*pooled).n] = true
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || !rep.Exhausted || rep.Schedules != 3 || !seen[0] || !seen[1] || !seen[2] {
		t.Errorf("got %q after %d schedules (exhausted %v), values %v; want 3 schedules giving 0, 1 and 2", rep.Kind, rep.Schedules, rep.Exhausted, seen)
	}
}
