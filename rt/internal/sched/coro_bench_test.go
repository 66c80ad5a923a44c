//go:build go1.23

package sched

import (
	"iter"
	"testing"
)

// BenchmarkRawCoroutineSwitch measures the mechanism a coroutine-based
// handoff (iter.Pull) would be built on, against BenchmarkRawHandoff's
// channels: a switch into a coroutine and back is two switches. The
// controlled goroutines hand the schedule to one another directly, while
// a coroutine only switches with the one that resumed it, so a handoff
// built on them goes through a central resumer: two switches per
// handoff.
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
