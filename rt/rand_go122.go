//go:build go1.22

package rt

import "math/rand/v2"

// The global functions of math/rand/v2; see rand.go.

// randV2 returns the iteration's math/rand/v2 source, or nil outside an
// exploration.
func randV2() *rand.Rand {
	g := cur()
	if g == nil {
		return nil
	}
	s := iterationRand(g)
	if r, ok := s.v2.(*rand.Rand); ok {
		return r
	}
	r := rand.New(rand.NewPCG(uint64(g.Iteration().RandSeed()), 0))
	s.v2 = r
	return r
}

// RandV2ExpFloat64 replaces rand.ExpFloat64 of math/rand/v2.
func RandV2ExpFloat64() float64 {
	if r := randV2(); r != nil {
		return r.ExpFloat64()
	}
	return rand.ExpFloat64()
}

// RandV2Float32 replaces rand.Float32 of math/rand/v2.
func RandV2Float32() float32 {
	if r := randV2(); r != nil {
		return r.Float32()
	}
	return rand.Float32()
}

// RandV2Float64 replaces rand.Float64 of math/rand/v2.
func RandV2Float64() float64 {
	if r := randV2(); r != nil {
		return r.Float64()
	}
	return rand.Float64()
}

// RandV2Int replaces rand.Int of math/rand/v2.
func RandV2Int() int {
	if r := randV2(); r != nil {
		return r.Int()
	}
	return rand.Int()
}

// RandV2Int32 replaces rand.Int32 of math/rand/v2.
func RandV2Int32() int32 {
	if r := randV2(); r != nil {
		return r.Int32()
	}
	return rand.Int32()
}

// RandV2Int32N replaces rand.Int32N of math/rand/v2.
func RandV2Int32N(n int32) int32 {
	if r := randV2(); r != nil {
		return r.Int32N(n)
	}
	return rand.Int32N(n)
}

// RandV2Int64 replaces rand.Int64 of math/rand/v2.
func RandV2Int64() int64 {
	if r := randV2(); r != nil {
		return r.Int64()
	}
	return rand.Int64()
}

// RandV2Int64N replaces rand.Int64N of math/rand/v2.
func RandV2Int64N(n int64) int64 {
	if r := randV2(); r != nil {
		return r.Int64N(n)
	}
	return rand.Int64N(n)
}

// RandV2IntN replaces rand.IntN of math/rand/v2.
func RandV2IntN(n int) int {
	if r := randV2(); r != nil {
		return r.IntN(n)
	}
	return rand.IntN(n)
}

// RandV2N replaces the generic rand.N of math/rand/v2.
func RandV2N[Int ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](n Int) Int {
	if r := randV2(); r != nil {
		if n <= 0 {
			panic("invalid argument to N")
		}
		return Int(r.Uint64N(uint64(n)))
	}
	return rand.N(n)
}

// RandV2NormFloat64 replaces rand.NormFloat64 of math/rand/v2.
func RandV2NormFloat64() float64 {
	if r := randV2(); r != nil {
		return r.NormFloat64()
	}
	return rand.NormFloat64()
}

// RandV2Perm replaces rand.Perm of math/rand/v2.
func RandV2Perm(n int) []int {
	if r := randV2(); r != nil {
		return r.Perm(n)
	}
	return rand.Perm(n)
}

// RandV2Shuffle replaces rand.Shuffle of math/rand/v2.
func RandV2Shuffle(n int, swap func(i, j int)) {
	if r := randV2(); r != nil {
		r.Shuffle(n, swap)
		return
	}
	rand.Shuffle(n, swap)
}

// RandV2Uint32 replaces rand.Uint32 of math/rand/v2.
func RandV2Uint32() uint32 {
	if r := randV2(); r != nil {
		return r.Uint32()
	}
	return rand.Uint32()
}

// RandV2Uint32N replaces rand.Uint32N of math/rand/v2.
func RandV2Uint32N(n uint32) uint32 {
	if r := randV2(); r != nil {
		return r.Uint32N(n)
	}
	return rand.Uint32N(n)
}

// RandV2Uint64 replaces rand.Uint64 of math/rand/v2.
func RandV2Uint64() uint64 {
	if r := randV2(); r != nil {
		return r.Uint64()
	}
	return rand.Uint64()
}

// RandV2Uint64N replaces rand.Uint64N of math/rand/v2.
func RandV2Uint64N(n uint64) uint64 {
	if r := randV2(); r != nil {
		return r.Uint64N(n)
	}
	return rand.Uint64N(n)
}

// RandV2UintN replaces rand.UintN of math/rand/v2.
func RandV2UintN(n uint) uint {
	if r := randV2(); r != nil {
		return r.UintN(n)
	}
	return rand.UintN(n)
}
