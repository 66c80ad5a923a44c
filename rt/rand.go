package rt

import (
	"math/rand"

	"interleave.dev/rt/internal/sched"
)

// The global functions of math/rand (and math/rand/v2, rand_go122.go) draw
// from a source seeded randomly per process, so a schedule that depends on
// the values drawn would not replay. Inside an exploration they draw from a
// source of the iteration instead, seeded from the exploration's seed and
// the iteration's number: the values are a function of those and of the
// schedule (which goroutine draws when), all recorded in the schedule
// file, so a finding replays, while different iterations still see
// different values. Under a systematic strategy (dfs, dpor, pcb) every iteration gets the same seed, keeping
// the program a function of the choices alone, as a systematic search
// needs. A call of rand.Seed seeds the iteration's source, as it seeds
// the global one natively (RandSeed). Outside an exploration the
// functions are math/rand's.

// randState is the iteration's state in package rt: its sources, and the
// goroutines standing at concurrency breakpoints (breakpoint.go).
type randState struct {
	v1 *rand.Rand
	v2 any // *rand/v2.Rand, on Go 1.22 and later
	bp []*standing
}

func iterationRand(g *sched.G) *randState {
	p := g.IterationRT()
	if s, ok := (*p).(*randState); ok {
		return s
	}
	s := &randState{}
	*p = s
	return s
}

// mathRand returns the iteration's math/rand source, or nil outside an
// exploration.
func mathRand() *rand.Rand {
	g := cur()
	if g == nil {
		return nil
	}
	s := iterationRand(g)
	if s.v1 == nil {
		s.v1 = rand.New(rand.NewSource(g.Iteration().RandSeed()))
	}
	return s.v1
}

// RandSeed replaces rand.Seed. Inside an exploration it seeds the
// iteration's source, so that what the program draws after it is the
// sequence of that seed, as natively (a test that seeds to get known
// values gets them); unless rand.Seed does nothing in this program, as
// from Go 1.24 on by default (randSeedNop).
func RandSeed(seed int64) {
	g := cur()
	if g == nil {
		rand.Seed(seed) //lint:ignore SA1019 it replaces the deprecated function
		return
	}
	if !randSeedNop() {
		iterationRand(g).v1 = rand.New(rand.NewSource(seed))
	}
}

// RandExpFloat64 replaces rand.ExpFloat64.
func RandExpFloat64() float64 {
	if r := mathRand(); r != nil {
		return r.ExpFloat64()
	}
	return rand.ExpFloat64()
}

// RandFloat32 replaces rand.Float32.
func RandFloat32() float32 {
	if r := mathRand(); r != nil {
		return r.Float32()
	}
	return rand.Float32()
}

// RandFloat64 replaces rand.Float64.
func RandFloat64() float64 {
	if r := mathRand(); r != nil {
		return r.Float64()
	}
	return rand.Float64()
}

// RandInt replaces rand.Int.
func RandInt() int {
	if r := mathRand(); r != nil {
		return r.Int()
	}
	return rand.Int()
}

// RandInt31 replaces rand.Int31.
func RandInt31() int32 {
	if r := mathRand(); r != nil {
		return r.Int31()
	}
	return rand.Int31()
}

// RandInt31n replaces rand.Int31n.
func RandInt31n(n int32) int32 {
	if r := mathRand(); r != nil {
		return r.Int31n(n)
	}
	return rand.Int31n(n)
}

// RandInt63 replaces rand.Int63.
func RandInt63() int64 {
	if r := mathRand(); r != nil {
		return r.Int63()
	}
	return rand.Int63()
}

// RandInt63n replaces rand.Int63n.
func RandInt63n(n int64) int64 {
	if r := mathRand(); r != nil {
		return r.Int63n(n)
	}
	return rand.Int63n(n)
}

// RandIntn replaces rand.Intn.
func RandIntn(n int) int {
	if r := mathRand(); r != nil {
		return r.Intn(n)
	}
	return rand.Intn(n)
}

// RandNormFloat64 replaces rand.NormFloat64.
func RandNormFloat64() float64 {
	if r := mathRand(); r != nil {
		return r.NormFloat64()
	}
	return rand.NormFloat64()
}

// RandPerm replaces rand.Perm.
func RandPerm(n int) []int {
	if r := mathRand(); r != nil {
		return r.Perm(n)
	}
	return rand.Perm(n)
}

// RandRead replaces rand.Read.
func RandRead(p []byte) (int, error) {
	if r := mathRand(); r != nil {
		return r.Read(p)
	}
	return rand.Read(p) //lint:ignore SA1019 it replaces the deprecated function
}

// RandShuffle replaces rand.Shuffle.
func RandShuffle(n int, swap func(i, j int)) {
	if r := mathRand(); r != nil {
		r.Shuffle(n, swap)
		return
	}
	rand.Shuffle(n, swap)
}

// RandUint32 replaces rand.Uint32.
func RandUint32() uint32 {
	if r := mathRand(); r != nil {
		return r.Uint32()
	}
	return rand.Uint32()
}

// RandUint64 replaces rand.Uint64.
func RandUint64() uint64 {
	if r := mathRand(); r != nil {
		return r.Uint64()
	}
	return rand.Uint64()
}
