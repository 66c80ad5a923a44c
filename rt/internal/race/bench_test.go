package race

import "testing"

// BenchmarkWriteWord: the steady-state cost of checking a one-word write
// by alternating goroutines ordered through a lock (the common case:
// no race, a new epoch each time).
func BenchmarkWriteWord(b *testing.B) {
	d := New()
	d.Spawn(0, 1)
	d.Spawn(1, 2)
	const mu, x = 1, 2
	b.ReportAllocs()
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
