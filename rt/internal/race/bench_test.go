package race

import (
	"fmt"
	"testing"
)

// BenchmarkWriteWord: the steady-state cost of checking a one-word write
// by alternating goroutines ordered through a lock (the common case:
// no race, a new epoch each time).
func BenchmarkWriteWord(b *testing.B) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	b.ReportAllocs()
	handoffs(b, d)
}

const mu, x = 1, 2 // the lock and the word of the handoff benchmarks

// handoffs runs b.N turns of goroutines 1 and 2 taking mu and writing x.
func handoffs(b *testing.B, d *Detector) {
	for i := 0; i < b.N; i++ {
		g := int32(1 + i&1)
		d.Acquire(g, mu)
		if r := d.Write(g, x, 0); r != nil {
			b.Fatal(r)
		}
		d.Release(g, mu)
	}
}

// BenchmarkReadWordSameEpoch: repeated reads in one epoch, FastTrack's
// fast path.
func BenchmarkReadWordSameEpoch(b *testing.B) {
	d := New()
	d.Spawn(0, 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if r := d.Read(1, 2, 0); r != nil {
			b.Fatal(r)
		}
	}
}

// BenchmarkHandoffKnowingMany: BenchmarkWriteWord's lock handoff between
// two goroutines that both know n others, whose entries do not change: a
// vector clock joins n entries at every acquire and release, a tree clock
// the few that changed.
func BenchmarkHandoffKnowingMany(b *testing.B) {
	for _, n := range []int32{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := New()
			d.Spawn(0, 1)
			for g := int32(3); g <= n; g++ {
				d.Spawn(1, g)
				d.Acquire(g, mu)
				d.Release(g, mu)
			}
			d.Spawn(1, 2)
			d.Acquire(1, mu)
			d.Acquire(2, mu)
			b.ReportAllocs()
			b.ResetTimer()
			handoffs(b, d)
		})
	}
}
