package sched

// Happens-before edges for the race detector. Channels follow the Go
// memory model (see chanState): a rendezvous on an unbuffered channel (or a
// buffered one whose receiver was waiting) joins both goroutines' clocks.

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
