//go:build !go1.24

package sched

import "runtime"

// CollectGarbage runs a garbage collection for g as runtime.GC does.
// Before Go 1.24 there are no weak pointers to tell what died: the memory
// the model refers to stays alive until the iteration ends. Pooled
// objects (sync.Pool) are dropped, as the collector drops them.
func (g *G) CollectGarbage() {
	for _, o := range g.it.objs {
		if o.kind == kindPool {
			clear(o.pool)
			o.pool = o.pool[:0]
		}
	}
	runtime.GC()
}
