//line testdata/determinism.go:1
package determinism; import __rt "interleave.dev/rt"

import (
	"context"
	"math/rand"
	_ "math/rand/v2"
	"runtime"
	"runtime/pprof"
)

func draws(ctx context.Context, xs []int) int {
	__rt.RandSeed(42)
	n := __rt.RandIntn(10) + __rt.RandInt()
	__rt.RandShuffle(len(xs), func(i, j int) { __rt.Update(&xs[j], __rtSites_49509682+6); __rt.Update(&xs[i], __rtSites_49509682+7); xs[i], xs[j] = xs[j], xs[i] })
	r := rand.New(rand.NewSource(1))
	n += r.Intn(3); __rt.Wrote(&n, __rtSites_49509682+0); 
	n += __rt.RandV2IntN(5) + int(__rt.RandV2N[int64](7)) + __rt.RandV2N[int](3); __rt.Wrote(&n, __rtSites_49509682+1); 
	__rt.PprofDo(ctx, pprof.Labels("k", "v"), func(ctx context.Context) {
		n += __rt.RandIntn(2); __rt.Wrote(&n, __rtSites_49509682+8); 
	})
	__rt.PprofSetGoroutineLabels(ctx)
	n += __rt.GOMAXPROCS(0) + runtime.NumCPU() + __rt.NumGoroutine(); __rt.Wrote(&n, __rtSites_49509682+2); 
	n += __rt.Stack(make([]byte, 1024), true); __rt.Wrote(&n, __rtSites_49509682+3); 
	_, _, line, _ := __rt.Caller(1)
	n += line + __rt.Callers(1, make([]uintptr, 8)); __rt.Wrote(&n, __rtSites_49509682+4); 
	__rt.Read(&n, __rtSites_49509682+5); return n
}

var __rtSites_49509682 = __rt.RegisterFile("testdata/determinism.go", "v*n\nv*n\nv*n\nv*n\nv*n\nv*n\nv*xs[j]\nv*xs[i]\nv*n", 16, 2, 17, 2, 22, 2, 23, 2, 25, 2, 26, 9, 14, 56, 14, 63, 19, 3)
