//go:build go1.23

package sched

import (
	"iter"
	"testing"
)

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

// BenchmarkRawHubHandoff measures a handoff between two coroutines
// through a hub, as the scheduler makes it: the running one names the
// next and yields, and the hub resumes the next: two switches.
func BenchmarkRawHubHandoff(b *testing.B) {
	type co struct {
		resume func() (struct{}, bool)
		other  *co
	}
	var cur *co
	n := b.N
	a, c := &co{}, &co{}
	a.other, c.other = c, a
	for _, g := range []*co{a, c} {
		g.resume, _ = iter.Pull(func(yield func(struct{}) bool) {
			for {
				if n--; n <= 0 {
					cur = nil
				} else {
					cur = g.other
				}
				yield(struct{}{})
			}
		})
	}
	b.ResetTimer()
	for cur = a; cur != nil; {
		cur.resume()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/handoff")
}
