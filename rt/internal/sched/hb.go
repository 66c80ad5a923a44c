package sched

// Happens-before edges for the race detector. Channels are modeled
// conservatively: every completed channel operation both acquires and
// releases the channel's clock, and a rendezvous joins both goroutines'
// clocks. This orders at least everything the Go memory model orders (so
// it never reports a false race), at the price of missing races that only
// a finer model of buffered channels would show.

func (it *Iteration) acquire(g *G, o *object) {
	if it.race != nil {
		it.race.Acquire(g.ID, o.id)
	}
}

func (it *Iteration) release(g *G, o *object) {
	if it.race != nil {
		it.race.Release(g.ID, o.id)
	}
}

func (it *Iteration) acqrel(g *G, o *object) {
	if it.race != nil {
		it.race.AcquireRelease(g.ID, o.id)
	}
}

// syncPair joins the clocks of g and w at a rendezvous on o.
func (it *Iteration) syncPair(g, w *G, o *object) {
	if it.race != nil {
		it.race.Release(g.ID, o.id)
		it.race.Release(w.ID, o.id)
		it.race.Acquire(g.ID, o.id)
		it.race.Acquire(w.ID, o.id)
	}
}
