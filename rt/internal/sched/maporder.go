package sched

// Map iteration order. Go randomizes the order of a range over a map; a
// replay that saw another order would diverge. Under exploration the
// runtime ranges over the map's keys in a canonical order permuted by a
// seed the schedule determines: the explorer's seed and the iteration's
// number (both in the schedule file; the seed alone under a systematic
// strategy, Config.FixedOrder), the events so far, the site and the
// number of map ranges before it in the iteration. Different iterations
// see different orders, a replay sees the same ones.

// MapOrder returns the seed of the permutation of the map range at site.
func (g *G) MapOrder(site uint32) uint64 {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.mapRanges++
	return mix(mix(it.mapSeed, it.eventHash()), uint64(site)<<32|it.mapRanges)
}

// mix combines two 64-bit values (splitmix64's finalizer over their sum
// with an odd multiple of the first).
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
