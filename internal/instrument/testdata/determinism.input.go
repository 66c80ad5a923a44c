package determinism

import (
	"context"
	"math/rand"
	randv2 "math/rand/v2"
	"runtime"
	"runtime/pprof"
)

func draws(ctx context.Context, xs []int) int {
	rand.Seed(42)
	n := rand.Intn(10) + rand.Int()
	rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	r := rand.New(rand.NewSource(1))
	n += r.Intn(3)
	n += randv2.IntN(5) + int(randv2.N[int64](7)) + randv2.N(3)
	pprof.Do(ctx, pprof.Labels("k", "v"), func(ctx context.Context) {
		n += rand.Intn(2)
	})
	pprof.SetGoroutineLabels(ctx)
	n += runtime.GOMAXPROCS(0) + runtime.NumCPU() + runtime.NumGoroutine()
	n += runtime.Stack(make([]byte, 1024), true)
	_, _, line, _ := runtime.Caller(1)
	n += line + runtime.Callers(1, make([]uintptr, 8))
	return n
}
