package sched

import (
	"fmt"
	"iter"
	"testing"
	"unsafe"

	"interleave.dev/rt/internal/strategy"
)

// The cost of the scheduler's heartbeat, beside the mechanisms it is
// built on, so that a scheduling point can be read as a ratio to them:
// BenchmarkRawCoroutineSwitch is the physical limit (one switch between
// Go's runtime coroutines), BenchmarkRawDirectHandoff the handoff as the
// scheduler makes it on coroutines (handoff.go), and BenchmarkRawHandoff
// the channel handoff kept where a coroutine cannot be used (a goroutine
// waking another through its semaphore channel and parking on its own).

// BenchmarkRawCoroutineSwitch measures the mechanism the handoff is built
// on (handoff.go), beside BenchmarkRawHandoff's channels: a switch into a
// coroutine made by iter.Pull and back is two switches.
func BenchmarkRawCoroutineSwitch(b *testing.B) {
	next, stop := iter.Pull(func(yield func(int) bool) {
		for i := 0; yield(i); i++ {
		}
	})
	defer stop()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/switch")
}

// BenchmarkRawDirectHandoff measures the handoff as the scheduler makes
// it on coroutines (handoff.go): two coroutines hand over to each other
// by entering the slot the other is parked in, one switch each.
func BenchmarkRawDirectHandoff(b *testing.B) {
	var a, c, m runner
	sa, sc := &slot{}, &slot{}
	n := b.N
	ended := 0
	body := func(me *runner, home *slot, other *runner) func(func(struct{}) bool) {
		return func(yield func(struct{}) bool) {
			home.yield = yield
			home.in, me.at = me, home
			yield(struct{}{})
			for ; n > 0; n-- {
				me.enter(other.at)
			}
			// The benchmark's goroutine is parked in sa: the end of a
			// resumes it; the end of c resumes a, parked in sc.
			ended++
		}
	}
	sa.resume = newCoroutine(body(&a, sa, &c))
	sc.resume = newCoroutine(body(&c, sc, &a))
	sa.resume()
	sc.resume()
	b.ResetTimer()
	m.enter(sa)
	b.StopTimer()
	if ended < 2 {
		m.enter(sc) // c, parked at home, ends and resumes m
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/handoff")
}

// BenchmarkRawHandoff measures the channel handoff: one goroutine wakes
// another through its one-slot semaphore channel and parks on its own.
func BenchmarkRawHandoff(b *testing.B) {
	a, c := make(chan struct{}, 1), make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		for {
			<-c
			select {
			case <-done:
				return
			default:
			}
			a <- struct{}{}
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c <- struct{}{}
		<-a
	}
	b.StopTimer()
	close(done)
	c <- struct{}{}
	// Each round trip is two handoffs.
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/handoff")
}

// stay lets the goroutine that reached a point continue, but switches
// every switchEvery points, before the fairness rule would force a switch
// at every point (fairBound): a benchmark of points that continue.
type stay struct {
	n     int
	drawn bool // GoOn counted the point Choose is asked next
}

// switchEvery is how often stay switches.
const switchEvery = 500

func (*stay) Name() string         { return "stay" }
func (*stay) Begin() bool          { return true }
func (*stay) End(strategy.Outcome) {}
func (*stay) Indexed()             {}
func (s *stay) GoOn(int32) bool {
	s.n++
	s.drawn = s.n%switchEvery == 0
	return !s.drawn
}
func (s *stay) Choose(p *strategy.Point) int {
	if p.Kind != strategy.Thread {
		return 0
	}
	if !s.drawn {
		s.n++
	}
	s.drawn = false
	if s.n%switchEvery != 0 {
		if i := p.Find(int(p.Current)); i >= 0 {
			return i
		}
	}
	return other{}.Choose(p)
}

// other always switches to another goroutine.
type other struct{}

func (other) Name() string         { return "other" }
func (other) Begin() bool          { return true }
func (other) End(strategy.Outcome) {}
func (other) Indexed()             {}
func (other) Choose(p *strategy.Point) int {
	for i := range p.Len() {
		if o := p.At(i); o.G != p.Current && o.G != 0 {
			return i
		}
	}
	return 0
}

// pointsPerIteration is the length of the iterations the point
// benchmarks run: long enough that starting goroutines does not count,
// bounded like real iterations.
const pointsPerIteration = 2000

// pointsBench runs iterations in which two goroutines each make
// pointsPerIteration/2 scheduling points (memory accesses), under strat,
// b.N points in all.
func pointsBench(b *testing.B, strat strategy.Strategy, race bool) {
	verifyRunq = false
	n := pointsPerIteration / 2
	iterations := b.N/pointsPerIteration + 1
	var x, y int
	b.ReportAllocs()
	b.ResetTimer()
	r := Explore(Config{Strategy: strat, Schedules: iterations, Race: race, MaxSteps: 10 * pointsPerIteration}, func() {
		g := Current()
		g.Go(func() {
			me := Current()
			for i := 0; i < n; i++ {
				me.Access(unsafe.Pointer(&y), unsafe.Sizeof(y), true, 0)
			}
		}, 0)
		for i := 0; i < n; i++ {
			g.Access(unsafe.Pointer(&x), unsafe.Sizeof(x), true, 0)
		}
	})
	b.StopTimer()
	if r.Finding != nil {
		b.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	points := float64(iterations * pointsPerIteration)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/points, "ns/point")
}

// BenchmarkPointContinue: a scheduling point where the strategy lets the
// same goroutine continue.
func BenchmarkPointContinue(b *testing.B) { pointsBench(b, &stay{}, false) }

// BenchmarkPointSwitch: a scheduling point where the strategy switches to
// the other goroutine.
func BenchmarkPointSwitch(b *testing.B) { pointsBench(b, other{}, false) }

// BenchmarkPointSwitchRace: the same with happens-before race detection.
func BenchmarkPointSwitchRace(b *testing.B) { pointsBench(b, other{}, true) }

// iterationBench runs whole iterations of a program of g goroutines that
// make about 100 events in all (mutex-protected increments), under the
// random strategy, and reports iterations per second.
func iterationBench(b *testing.B, goroutines int) {
	verifyRunq = false
	perG := 100 / goroutines / 3
	b.ReportAllocs()
	b.ResetTimer()
	r := Explore(Config{Strategy: strategy.NewRandom(1), Schedules: b.N, Race: true, Leaks: true, MaxSteps: 10000}, func() {
		g := Current()
		var mu, wg, n int
		g.WGAdd(unsafe.Pointer(&wg), goroutines, 0)
		for k := 0; k < goroutines; k++ {
			g.Go(func() {
				me := Current()
				for i := 0; i < perG; i++ {
					me.Lock(unsafe.Pointer(&mu), 0)
					me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
					me.Unlock(unsafe.Pointer(&mu), 0)
				}
				me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
	})
	b.StopTimer()
	if r.Finding != nil {
		b.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	b.ReportMetric(float64(r.Iterations)/b.Elapsed().Seconds(), "iterations/s")
	b.ReportMetric(float64(r.Steps), "events/iteration")
}

func BenchmarkIterations2Goroutines(b *testing.B) { iterationBench(b, 2) }
func BenchmarkIterations8Goroutines(b *testing.B) { iterationBench(b, 8) }

// BenchmarkLocalWork: whole iterations of 4 goroutines that each, 5
// times, write 8 words of their own slice (memory no other goroutine
// touches) and then increment a shared counter under a mutex; with and
// without scheduling points at plain memory accesses (Config.Reduce).
// Accesses under the mutex are no choice point either way (the other
// goroutines wait for the mutex); the goroutines' own writes are, unless
// reduced.
func BenchmarkLocalWork(b *testing.B) {
	for _, reduce := range []bool{false, true} {
		name := "points"
		if reduce {
			name = "reduce"
		}
		b.Run(name, func(b *testing.B) { localWorkBench(b, reduce) })
	}
}

func localWorkBench(b *testing.B, reduce bool) {
	const goroutines, rounds, words = 4, 5, 8
	b.ReportAllocs()
	b.ResetTimer()
	choices := 0
	r := Explore(Config{Strategy: countChoices{strategy.NewRandom(1), &choices}, Schedules: b.N, Race: true, Leaks: true, MaxSteps: 10000, Reduce: reduce}, func() {
		g := Current()
		var mu, wg, n int
		g.WGAdd(unsafe.Pointer(&wg), goroutines, 0)
		for k := 0; k < goroutines; k++ {
			own := make([]int, words)
			g.Go(func() {
				me := Current()
				for i := 0; i < rounds; i++ {
					for w := range own {
						me.Access(unsafe.Pointer(&own[w]), 8, true, 0)
						own[w] = i
					}
					me.Lock(unsafe.Pointer(&mu), 0)
					me.Access(unsafe.Pointer(&n), unsafe.Sizeof(n), true, 0)
					n++
					me.Unlock(unsafe.Pointer(&mu), 0)
				}
				me.WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
	})
	b.StopTimer()
	if r.Finding != nil {
		b.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	b.ReportMetric(float64(r.Iterations)/b.Elapsed().Seconds(), "iterations/s")
	b.ReportMetric(float64(choices)/float64(r.Iterations), "choices/iteration")
}

// countChoices counts the choice points a strategy is asked about.
type countChoices struct {
	strategy.Strategy
	n *int
}

func (c countChoices) Choose(p *strategy.Point) int { *c.n++; return c.Strategy.Choose(p) }

// BenchmarkCurrent: the goroutine identity lookup every operation of the
// runtime starts with, from a controlled goroutine.
func BenchmarkCurrent(b *testing.B) {
	var found int
	b.ReportAllocs()
	Explore(Config{Strategy: &stay{}, Schedules: 1}, func() {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if Current() != nil {
				found++
			}
		}
		b.StopTimer()
	})
	if found != b.N {
		b.Fatalf("Current found the goroutine %d times of %d", found, b.N)
	}
}

// mutexOps is the number of mutex operations (Lock, a write, Unlock) of
// one iteration of BenchmarkGoroutines, spread over its goroutines.
const mutexOps = 10000

// BenchmarkGoroutines measures how the cost of a scheduling point grows
// with the number of goroutines: one iteration makes mutexOps
// mutex-protected increments, spread evenly over n goroutines that all
// contend for the one mutex, under the random strategy, without and with
// race detection. A scheduling point should cost the same whatever n is
// (the race detector's vector clocks add O(n) per synchronization).
func BenchmarkGoroutines(b *testing.B) {
	for _, race := range []bool{false, true} {
		for _, n := range []int{10, 100, 1000, 10000} {
			name := fmt.Sprintf("norace/n=%d", n)
			if race {
				name = fmt.Sprintf("race/n=%d", n)
			}
			b.Run(name, func(b *testing.B) { goroutinesBench(b, n, race) })
		}
	}
}

// BenchmarkGoroutinesEach is BenchmarkGoroutines with 20 operations per
// goroutine whatever n (20n in all), so that starting and ending the
// goroutines weighs the same at every n and what is left is the
// scheduling point: norace, the goroutines contend for one mutex (most
// of them wait for it at any time); independent, each locks a mutex of
// its own and writes a variable of its own (all of them can run at any
// time).
func BenchmarkGoroutinesEach(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("norace/n=%d", n), func(b *testing.B) { opsBench(b, n, 20*n, false, false) })
	}
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("independent/n=%d", n), func(b *testing.B) { opsBench(b, n, 20*n, false, true) })
	}
}

func goroutinesBench(b *testing.B, goroutines int, race bool) {
	opsBench(b, goroutines, mutexOps, race, false)
}

// opsBench runs iterations of ops mutex operations spread over
// goroutines that contend for one mutex or, independent, each lock a
// mutex of their own.
func opsBench(b *testing.B, goroutines, ops int, race, independent bool) {
	verifyRunq = false
	perG := ops / goroutines
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	steps := 0
	r := Explore(Config{Strategy: strategy.NewRandom(1), Schedules: b.N, Race: race, Leaks: true}, func() {
		g := Current()
		var wg int
		type own struct{ mu, n int }
		shared := &own{}
		g.WGAdd(unsafe.Pointer(&wg), goroutines, 0)
		for k := 0; k < goroutines; k++ {
			v := shared
			if independent {
				v = &own{}
			}
			mu, n := &v.mu, &v.n
			// Each operation finds its goroutine, as instrumented code
			// does (rt.Go and rt.Lock call Current): the progress the
			// explorer watches for (the gate) moves there, and an
			// iteration longer than reapAfter without it would dump
			// every stack, as for a goroutine blocked natively.
			Current().Go(func() {
				for i := 0; i < perG; i++ {
					Current().Lock(unsafe.Pointer(mu), 0)
					Current().Access(unsafe.Pointer(n), unsafe.Sizeof(*n), true, 0)
					Current().Unlock(unsafe.Pointer(mu), 0)
				}
				Current().WGAdd(unsafe.Pointer(&wg), -1, 0)
			}, 0)
		}
		g.WGWait(unsafe.Pointer(&wg), 0)
		steps += g.it.steps
	})
	b.StopTimer()
	cpu := cpuTime() - cpu0
	if r.Finding != nil {
		b.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(r.Iterations*ops), "ns/mutexop")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/point")
	b.ReportMetric(float64(cpu)/float64(steps), "cpu-ns/point")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkCopy measures plain memory by the word: one schedule copies a
// large []byte (a read of every word of the source, then a write of
// every word of the destination, as rt.Copy reports copy), with race
// detection, so that every word of both slices gets its model and its
// race history. ns/word counts the words of both slices.
func BenchmarkCopy(b *testing.B) {
	for _, mib := range []int{1, 8} {
		b.Run(fmt.Sprintf("MiB=%d", mib), func(b *testing.B) { copyBench(b, mib<<20) })
	}
}

func copyBench(b *testing.B, size int) {
	verifyRunq = false
	src, dst := make([]byte, size), make([]byte, size)
	b.ReportAllocs()
	b.ResetTimer()
	r := Explore(Config{Strategy: strategy.NewRandom(1), Schedules: b.N, Race: true, Leaks: true}, func() {
		g := Current()
		g.Access(unsafe.Pointer(&src[0]), uintptr(size), false, 0)
		g.Access(unsafe.Pointer(&dst[0]), uintptr(size), true, 0)
		copy(dst, src)
	})
	b.StopTimer()
	if r.Finding != nil {
		b.Fatalf("%s: %s", r.Finding.Kind, r.Finding.Message)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(r.Iterations*2*size/8), "ns/word")
}
