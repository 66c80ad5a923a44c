//go:build go1.23

package rt

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
)

// With FixedOrder (systematic strategies), the orders of map ranges do
// not depend on the schedule's number: a dfs search that numbers its
// schedules from elsewhere (a part of the tree explored by another
// process) runs the same program on every path.
func TestFixedMapOrderIgnoresTheNumber(t *testing.T) {
	run := func(first int, fixed bool) []string {
		var out []string
		var x int
		sched.Explore(sched.Config{
			Strategy: strategy.NewDFS(0), Schedules: 100, StuckAfter: 10 * time.Second,
			OrderSeed: 1, FirstIteration: first, FixedOrder: fixed,
		}, func() {
			m := map[int]bool{}
			for i := 0; i < 8; i++ {
				m[i] = true
			}
			var wg sync.WaitGroup
			WGGo(&wg, func() { Write(&x, 0) }, 0)
			Write(&x, 0)
			var keys []int
			for k := range RangeMap(m, 0) {
				keys = append(keys, k)
			}
			WGWait(&wg, 0)
			out = append(out, fmt.Sprint(keys))
		})
		return out
	}
	a, b := run(1, true), run(50, true)
	if len(a) < 2 || !reflect.DeepEqual(a, b) {
		t.Errorf("fixed orders: numbered from 1 %v, from 50 %v", a, b)
	}
	if reflect.DeepEqual(run(1, false), run(50, false)) {
		t.Errorf("orders drawn from the number are the same from 1 and from 50: the test shows nothing")
	}
}
